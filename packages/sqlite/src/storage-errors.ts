import { BackendUnavailableError, MemoryError, StoreNotWritableError } from "@memory/api";

function sqliteCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && code.startsWith("SQLITE_") ? code : undefined;
}

/**
 * Turns SQLite's storage failures into the contract's typed errors, each naming the file and
 * what to do; anything else (including errors that are already typed) passes through. The
 * failed statement or transaction was rolled back by SQLite, so nothing half-written remains.
 */
export function toStorageError(error: unknown, file: string): unknown {
  if (MemoryError.isInstance(error)) return error;
  const code = sqliteCode(error);
  if (code === undefined) return error;
  const options = { cause: error, details: { file, sqliteCode: code } };
  if (code === "SQLITE_FULL") {
    return new StoreNotWritableError(
      "full",
      `The memory database ${file} cannot grow: its disk (or the database's size limit) is full. Free space or move the store (data_dir / [sqlite].path), then retry; reads keep working and nothing was half-written.`,
      options,
    );
  }
  if (code.startsWith("SQLITE_READONLY") || code === "SQLITE_PERM") {
    return new StoreNotWritableError(
      "read-only",
      `The memory database ${file} is read-only (${code}): make the file, its -wal and -shm files and its directory writable by this process, or point data_dir / [sqlite].path at a writable place; reads keep working.`,
      options,
    );
  }
  if (code.startsWith("SQLITE_IOERR")) {
    return new BackendUnavailableError(
      `The disk failed while reading or writing the memory database ${file} (${code}). Check the disk and the file system (dmesg), then retry; SQLite rolled back the failed write.`,
      options,
    );
  }
  if (code.startsWith("SQLITE_CORRUPT") || code === "SQLITE_NOTADB") {
    return new BackendUnavailableError(
      `The memory database ${file} is damaged (${code}). Stop every process using it, keep a copy, then rebuild: \`memory export\` what still reads, move the file away and \`memory import\` the export (or restore a backup).`,
      options,
    );
  }
  if (code === "SQLITE_CANTOPEN") {
    return new BackendUnavailableError(
      `The memory database ${file} (or its -wal/-shm file) cannot be opened (${code}): check that its directory exists and is writable by this process.`,
      options,
    );
  }
  return error;
}
