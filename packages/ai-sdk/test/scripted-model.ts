import type { LanguageModelMiddleware } from "ai";
import { convertArrayToReadableStream, MockLanguageModelV3 } from "ai/test";

type WrapGenerate = NonNullable<LanguageModelMiddleware["wrapGenerate"]>;
type GenerateResult = Awaited<ReturnType<WrapGenerate>>;
export type CallOptions = Parameters<WrapGenerate>[0]["params"];
type StreamResult = Awaited<ReturnType<NonNullable<LanguageModelMiddleware["wrapStream"]>>>;
type StreamPart = StreamResult["stream"] extends ReadableStream<infer Part> ? Part : never;

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};

/** One scripted answer: a tool call, or text (computed from the call's prompt when a function). */
export type Step =
  | { call: string; input: Record<string, unknown> }
  | { text: string | ((params: CallOptions) => string) };

function answer(step: Step, params: CallOptions, index: number): GenerateResult {
  if ("call" in step)
    return {
      content: [
        {
          type: "tool-call",
          toolCallId: `call-${index}`,
          toolName: step.call,
          input: JSON.stringify(step.input),
        },
      ],
      finishReason: { unified: "tool-calls", raw: "tool_calls" },
      usage,
      warnings: [],
    };
  const text = typeof step.text === "function" ? step.text(params) : step.text;
  return {
    content: [{ type: "text", text }],
    finishReason: { unified: "stop", raw: "stop" },
    usage,
    warnings: [],
  };
}

/**
 * The AI SDK's own mock language model, answering each call with the next scripted step (a
 * model that "decides" to call memory tools). Its `doGenerateCalls` / `doStreamCalls` hold
 * what the model was sent, after any middleware.
 */
export function scriptedModel(steps: Step[]): MockLanguageModelV3 {
  let next = 0;
  const take = (): [Step, number] => {
    const step = steps[next];
    if (!step)
      throw new Error(`the script has ${steps.length} steps; call ${next + 1} is one too many`);
    return [step, next++];
  };
  return new MockLanguageModelV3({
    doGenerate: async (params) => {
      const [step, index] = take();
      return answer(step, params, index);
    },
    doStream: async (params) => {
      const [step, index] = take();
      const result = answer(step, params, index);
      const parts: StreamPart[] = [{ type: "stream-start", warnings: [] }];
      for (const part of result.content) {
        if (part.type === "text") {
          // Two deltas, so a consumer must join them to get the reply.
          const half = Math.ceil(part.text.length / 2);
          parts.push({ type: "text-start", id: "t" });
          parts.push({ type: "text-delta", id: "t", delta: part.text.slice(0, half) });
          parts.push({ type: "text-delta", id: "t", delta: part.text.slice(half) });
          parts.push({ type: "text-end", id: "t" });
        } else if (part.type === "tool-call") parts.push(part);
      }
      parts.push({ type: "finish", finishReason: result.finishReason, usage });
      return { stream: convertArrayToReadableStream(parts) };
    },
  });
}

/** The text of the last tool result in a call's prompt (what the model read from a tool). */
export function lastToolOutput(params: CallOptions): { type: string; value: unknown } {
  const tool = [...params.prompt].reverse().find((message) => message.role === "tool");
  const part = tool?.role === "tool" ? tool.content.at(-1) : undefined;
  if (part?.type !== "tool-result") throw new Error("no tool result in the prompt");
  return part.output as { type: string; value: unknown };
}
