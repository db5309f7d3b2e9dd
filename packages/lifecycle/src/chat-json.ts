import type { ChatMessage, ChatModel } from "@memory/api";
import { MemoryError } from "@memory/api";
import type { z } from "zod";
import { ChatOutputError, type ChatTask } from "./chat-output-error.js";

export interface CompleteJsonOptions<T> {
  task: ChatTask;
  /** Checks beyond the schema (curator rules); returns the problems, empty when fine. */
  check?: (value: T) => string[];
  /** Extra attempts after an unusable answer (default 1). */
  retries?: number;
  signal?: AbortSignal;
  /** Said in error messages ("the turn is stored as ..."). */
  context?: string;
  details?: Record<string, unknown>;
}

export interface CompleteJsonResult<T> {
  value: T;
  /** Calls made to the model (1 + retries used). */
  attempts: number;
}

/** Zod's issues as short lines: `facts.0.content: Too small...`. */
function issues(error: z.ZodError): string[] {
  return error.issues
    .slice(0, 10)
    .map((issue) => `${issue.path.length > 0 ? issue.path.join(".") : "(root)"}: ${issue.message}`);
}

function parse<T>(text: string, schema: z.ZodType<T>, check?: (value: T) => string[]) {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { problems: ["the answer is not valid JSON"] };
  }
  const result = schema.safeParse(json);
  if (!result.success) return { problems: issues(result.error) };
  const problems = check?.(result.data) ?? [];
  return problems.length > 0 ? { problems } : { value: result.data };
}

/**
 * Asks the model for JSON (JSON mode, temperature 0), validates it with `schema` and `check`,
 * and on an unusable answer asks again, telling the model what was wrong, at most `retries`
 * more times. A failing call (HTTP error, timeout: the model retries those itself) is not
 * retried here. Every failure is a {@link ChatOutputError}; a model error keeps its code.
 */
export async function completeJson<T>(
  chatModel: ChatModel,
  messages: readonly ChatMessage[],
  schema: z.ZodType<T>,
  options: CompleteJsonOptions<T>,
): Promise<CompleteJsonResult<T>> {
  const retries = options.retries ?? 1;
  const conversation: ChatMessage[] = [...messages];
  const suffix = options.context ? ` ${options.context}` : "";
  let problems: string[] = [];
  for (let attempt = 1; attempt <= retries + 1; attempt++) {
    let text: string;
    try {
      text = await chatModel.complete(conversation, {
        json: true,
        temperature: 0,
        ...(options.signal ? { signal: options.signal } : {}),
      });
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      // A JSON-mode reply that is not JSON is an unusable answer, not a failing call: the
      // OpenAI-compatible model reports it as a malformed response (caused by JSON.parse's
      // SyntaxError) before we see the text.
      if (MemoryError.isInstance(error) && error.cause instanceof SyntaxError) {
        problems = ["the answer is not valid JSON"];
        conversation.push({ role: "user", content: correction(problems) });
        continue;
      }
      throw new ChatOutputError(
        options.task,
        `The chat model ${chatModel.name}/${chatModel.model} failed (${options.task}): ${reason}.${suffix}`,
        {
          cause: error,
          ...(MemoryError.isInstance(error) ? { code: error.code } : {}),
          details: { ...options.details, attempts: attempt, model: chatModel.model },
        },
      );
    }
    const parsed = parse(text, schema, options.check);
    if (parsed.problems === undefined) return { value: parsed.value as T, attempts: attempt };
    problems = parsed.problems;
    conversation.push(
      { role: "assistant", content: text },
      { role: "user", content: correction(problems) },
    );
  }
  throw new ChatOutputError(
    options.task,
    `The chat model ${chatModel.name}/${chatModel.model} answered ${retries + 1} time(s) with unusable JSON (${options.task}): ${problems.join("; ")}.${suffix} Try another chat_model, or raise remember_retries.`,
    {
      problems,
      details: { ...options.details, attempts: retries + 1, model: chatModel.model },
    },
  );
}

function correction(problems: string[]): string {
  return `Your answer could not be used: ${problems.join("; ")}. Answer again with only the JSON object described above.`;
}
