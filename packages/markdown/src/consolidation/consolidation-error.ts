import { MemoryError, type MemoryErrorCode, type MemoryErrorOptions } from "@memory/api";

const marker = Symbol.for("@memory/markdown.ConsolidationError");

/** Why a consolidation of `MEMORY.md` was refused. */
export type ConsolidationRefusal =
  /** The chat model call failed (HTTP error, timeout, missing key: `code` and `cause` are its). */
  | "model-failed"
  /** The answer is empty (or only whitespace, or an empty code block). */
  | "empty-answer"
  /** The answer is not a memory file: no entry line, unreadable entry lines, invalid keys. */
  | "unparseable"
  /** More than 25% of the previous entries would disappear (`force` allows it). */
  | "too-many-removals"
  /** A pinned entry would disappear (never allowed, even with `force`: unpin it first). */
  | "pinned-removed"
  /** An added or changed line does not trace to a source file. */
  | "untraceable";

/**
 * A consolidation of `MEMORY.md` was refused before anything was written: the model failed, or
 * its answer broke a guard (`reason`, and `problems` says which lines and why). Code
 * `BACKEND_UNAVAILABLE` (the model's answer is unusable, as the lifecycle's ChatOutputError),
 * or the underlying error's code when the model call itself failed.
 */
export class ConsolidationError extends MemoryError {
  readonly [marker] = true;
  readonly reason: ConsolidationRefusal;
  readonly problems: string[];

  constructor(
    reason: ConsolidationRefusal,
    message: string,
    options: MemoryErrorOptions & { code?: MemoryErrorCode; problems?: string[] } = {},
  ) {
    const { code, problems, ...rest } = options;
    super(code ?? "BACKEND_UNAVAILABLE", message, {
      ...rest,
      details: { ...rest.details, reason, problems: problems ?? [] },
    });
    this.name = "ConsolidationError";
    this.reason = reason;
    this.problems = problems ?? [];
  }

  /** True for a ConsolidationError from any copy of this package. */
  static isInstance(error: unknown): error is ConsolidationError {
    return typeof error === "object" && error !== null && marker in error;
  }
}
