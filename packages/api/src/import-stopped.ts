import { MemoryError } from "./errors.js";
import type { ImportReport } from "./types/memory.js";

/**
 * The error an import rejects with when the store fails part-way (full disk, read-only file,
 * lost connection): the cause's code and message, what was committed before it, and that an
 * import is idempotent, so running it again after the fix does not duplicate anything.
 * `details.imported` and `details.rejected` carry the counts for programs.
 */
export function importStoppedError(cause: unknown, report: ImportReport): MemoryError {
  const code = MemoryError.isInstance(cause) ? cause.code : "BACKEND_UNAVAILABLE";
  const reason = cause instanceof Error ? cause.message : String(cause);
  return new MemoryError(
    code,
    `The import stopped after ${report.imported} ${report.imported === 1 ? "entry was" : "entries were"} committed (they are kept): ${reason} Fix this and run the same import again: entries already imported are updated, not duplicated.`,
    {
      cause,
      details: {
        ...(MemoryError.isInstance(cause) ? cause.details : {}),
        imported: report.imported,
        rejected: report.rejected.length,
      },
    },
  );
}
