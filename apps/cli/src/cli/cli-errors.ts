import { MemoryError } from "@memory/api";
import { EXIT_CODES, type ExitCode } from "./exit-codes.js";

/** The command line is wrong (missing argument, conflicting options): exit code 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}

/**
 * A command failed in an expected way and already knows its exit code and message (an entry
 * that does not exist, an import with rejected lines).
 */
export class CommandError extends Error {
  readonly exitCode: ExitCode;
  /** Extra fields for the `--json` error document. */
  readonly details: Record<string, unknown> | undefined;

  constructor(message: string, exitCode: ExitCode, details?: Record<string, unknown>) {
    super(message);
    this.name = "CommandError";
    this.exitCode = exitCode;
    this.details = details;
  }
}

/** Maps any thrown value to the exit code scripts rely on. */
export function exitCodeFor(error: unknown): ExitCode {
  if (error instanceof UsageError) return EXIT_CODES.usage;
  if (error instanceof CommandError) return error.exitCode;
  if (MemoryError.isInstance(error)) {
    if (error.code === "NOT_FOUND") return EXIT_CODES.notFound;
    // A bad key, category or timestamp is the caller's input: fixing the command line fixes it.
    if (error.code === "INVALID_INPUT") return EXIT_CODES.usage;
  }
  return EXIT_CODES.failure;
}

/** The stable code shown in `--json` errors. */
export function errorCodeFor(error: unknown): string {
  if (error instanceof UsageError) return "USAGE";
  if (error instanceof CommandError) {
    return error.exitCode === EXIT_CODES.notFound ? "NOT_FOUND" : "FAILED";
  }
  if (MemoryError.isInstance(error)) return error.code;
  return "INTERNAL";
}
