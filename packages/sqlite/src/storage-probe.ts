import { statfsSync } from "node:fs";
import { dirname } from "node:path";
import type { HealthReport } from "@memory/api";
import type { Opened } from "./opened-store.js";
import { toStorageError } from "./storage-errors.js";

/** Below this much free space on the file system, the store reports itself full. */
export const MIN_FREE_BYTES = 64 * 1024;

/**
 * Whether a write can succeed now. Three checks, cheapest first: the free space of the file
 * system (a tiny probe write can still fit in the WAL's already allocated pages when the disk is
 * full, so space is measured, not guessed), the database's own page limit (`max_page_count`),
 * then one real write (an IMMEDIATE transaction that rewrites a `meta` row with its own value),
 * which is what catches read-only files, directories and file systems.
 */
export function probeStorage(opened: Opened): NonNullable<HealthReport["storage"]> {
  const { db, file } = opened.connection;
  if (file !== ":memory:" && file !== "") {
    const free = freeBytes(dirname(file));
    if (free !== undefined && free < MIN_FREE_BYTES) {
      return {
        writable: false,
        reason: `The file system of ${file} has ${free} bytes free (less than ${MIN_FREE_BYTES}): free space or move the store (data_dir / [sqlite].path); reads keep working.`,
      };
    }
  }
  const pages = db.pragma("page_count", { simple: true }) as number;
  const maxPages = db.pragma("max_page_count", { simple: true }) as number;
  if (pages >= maxPages) {
    return {
      writable: false,
      reason: `The memory database ${file} reached its size limit (max_page_count ${maxPages}): raise the limit or delete entries; reads keep working.`,
    };
  }
  try {
    db.transaction(() => {
      db.prepare("UPDATE meta SET value = value WHERE key = 'schema_version'").run();
    }).immediate();
    return { writable: true };
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    // Another process holds the write lock: the store is being written, so it can be.
    if (typeof code === "string" && code.startsWith("SQLITE_BUSY")) return { writable: true };
    const typed = toStorageError(error, file);
    return { writable: false, reason: typed instanceof Error ? typed.message : String(typed) };
  }
}

function freeBytes(directory: string): number | undefined {
  try {
    const stats = statfsSync(directory);
    return stats.bavail * stats.bsize;
  } catch {
    // No statfs for this path (unusual file systems): the write probe still runs.
    return undefined;
  }
}
