import { MemoryError, type MemoryErrorCode, type MemoryErrorOptions } from "@memory/api";

const marker = Symbol.for("@memory/lifecycle.ChatOutputError");

/** Which lifecycle task asked the chat model. */
export type ChatTask = "remember" | "curate" | "session-summary" | "mine-synthesize";

/**
 * A lifecycle task could not use the chat model: it failed (HTTP error, timeout: `code` is the
 * underlying error's, `cause` holds it) or kept answering something unusable (not JSON, wrong
 * shape, a curator proposal that breaks a rule: code `BACKEND_UNAVAILABLE`, `problems` says
 * what). `details` says which task and what was kept (remember: the stored turn's key).
 */
export class ChatOutputError extends MemoryError {
  readonly [marker] = true;
  readonly task: ChatTask;
  /** Why the last answer was rejected (empty when the model call itself failed). */
  readonly problems: string[];

  constructor(
    task: ChatTask,
    message: string,
    options: MemoryErrorOptions & { code?: MemoryErrorCode; problems?: string[] } = {},
  ) {
    const { code, problems, ...rest } = options;
    super(code ?? "BACKEND_UNAVAILABLE", message, {
      ...rest,
      details: { ...rest.details, task, problems: problems ?? [] },
    });
    this.name = "ChatOutputError";
    this.task = task;
    this.problems = problems ?? [];
  }

  /** True for a ChatOutputError from any copy of this package. */
  static isInstance(error: unknown): error is ChatOutputError {
    return typeof error === "object" && error !== null && marker in error;
  }
}
