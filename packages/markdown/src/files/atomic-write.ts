import { randomBytes } from "node:crypto";
import {
  closeSync,
  fsyncSync,
  mkdirSync,
  openSync,
  renameSync,
  unlinkSync,
  writeSync,
} from "node:fs";
import { basename, dirname, join } from "node:path";

/** Flushes a directory entry (a rename) to disk; not every platform can open a directory. */
function syncDirectory(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, "r");
    fsyncSync(fd);
  } catch {
    // Windows cannot fsync a directory; the rename itself is still atomic there.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * Replaces `file` with `data` atomically: a temporary file in the same directory, fsync,
 * rename over the target, fsync of the directory. A reader sees the old file or the new one,
 * never a mix, and a crash leaves one of them (plus, at worst, a stray `.*.tmp`).
 */
export function writeFileAtomic(file: string, data: string | Uint8Array): void {
  prepareFileAtomic(file, data).commit();
}

/** A file written and flushed beside its target, waiting to be renamed over it. */
export interface PreparedWrite {
  /** Renames it over the target and flushes the directory. */
  commit(): void;
  /** Deletes it. */
  abort(): void;
}

/**
 * The slow half of an atomic write (temporary file, write, fsync), so that a caller can check
 * the target once more right before the fast half (`commit`: rename): compare-and-swap with
 * the smallest window.
 */
export function prepareFileAtomic(file: string, data: string | Uint8Array): PreparedWrite {
  const dir = dirname(file);
  mkdirSync(dir, { recursive: true });
  const temp = join(dir, `.${basename(file)}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`);
  const fd = openSync(temp, "wx", 0o644);
  try {
    const bytes = typeof data === "string" ? Buffer.from(data, "utf8") : data;
    let written = 0;
    while (written < bytes.length) written += writeSync(fd, bytes, written);
    fsyncSync(fd);
  } catch (error) {
    closeSync(fd);
    try {
      unlinkSync(temp);
    } catch {}
    throw error;
  }
  closeSync(fd);
  const abort = () => {
    try {
      unlinkSync(temp);
    } catch {}
  };
  return {
    commit() {
      try {
        renameSync(temp, file);
      } catch (error) {
        abort();
        throw error;
      }
      syncDirectory(dir);
    },
    abort,
  };
}
