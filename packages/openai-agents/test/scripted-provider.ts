import {
  type AgentInputItem,
  type Model,
  type ModelProvider,
  type ModelRequest,
  type ModelResponse,
  setTracingDisabled,
  Usage,
} from "@openai/agents";

// Nothing here may reach the network: no trace export to OpenAI.
setTracingDisabled(true);

/** One scripted answer: a function call, or a message (computed from the request if a function). */
export type Step =
  | { call: string; input: Record<string, unknown> }
  | { say: string | ((request: ModelRequest) => string) };

/**
 * A `ModelProvider` whose model answers each request with the next scripted step, the way a
 * real model would (function calls, then a message). `requests` holds what the SDK sent.
 */
export class ScriptedProvider implements ModelProvider {
  readonly requests: ModelRequest[] = [];
  #next = 0;

  constructor(private readonly steps: Step[]) {}

  getModel(): Model {
    return {
      getResponse: async (request) => this.#answer(request),
      getStreamedResponse: () => {
        throw new Error("the scripted model does not stream");
      },
    };
  }

  #answer(request: ModelRequest): ModelResponse {
    this.requests.push(request);
    const index = this.#next++;
    const step = this.steps[index];
    if (!step)
      throw new Error(`the script has ${this.steps.length} steps; got request ${index + 1}`);
    const usage = new Usage({ requests: 1, inputTokens: 10, outputTokens: 5, totalTokens: 15 });
    if ("call" in step)
      return {
        usage,
        output: [
          {
            type: "function_call",
            id: `fc_${index}`,
            callId: `call_${index}`,
            name: step.call,
            arguments: JSON.stringify(step.input),
            status: "completed",
          },
        ],
      };
    const text = typeof step.say === "function" ? step.say(request) : step.say;
    return {
      usage,
      output: [
        {
          type: "message",
          id: `msg_${index}`,
          role: "assistant",
          status: "completed",
          content: [{ type: "output_text", text }],
        },
      ],
    };
  }
}

/** The output of the last function call result in a request's input (what the model read). */
export function lastToolOutput(request: ModelRequest): string {
  const input = typeof request.input === "string" ? [] : request.input;
  const result = [...input].reverse().find((item) => item.type === "function_call_result");
  if (result?.type !== "function_call_result") throw new Error("no tool result in the request");
  const output = result.output;
  if (typeof output === "string") return output;
  if (!Array.isArray(output) && output.type === "text") return output.text;
  return JSON.stringify(output);
}

/** The texts of the user messages in a request's input. */
export function userTexts(request: ModelRequest): string[] {
  const input: AgentInputItem[] =
    typeof request.input === "string" ? [{ role: "user", content: request.input }] : request.input;
  return input.flatMap((item) =>
    "role" in item && item.role === "user"
      ? [typeof item.content === "string" ? item.content : JSON.stringify(item.content)]
      : [],
  );
}
