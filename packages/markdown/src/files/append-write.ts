import {
  closeSync,
  constants,
  fstatSync,
  fsyncSync,
  ftruncateSync,
  openSync,
  readFileSync,
  unlinkSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { isAbsolute, join } from "node:path";
import { type Stamp, sameStamp } from "./file-stamp.js";

/**
 * What an append in progress may leave behind if its process dies: the file, its size before
 * and the size it is growing to. Kept in `.memory-state/append.json` for the length of one append.
 */
interface AppendIntent {
  path: string;
  /** The file's inode: a file replaced since (renamed over) is not the one appended to. */
  ino: number;
  from: number;
  to: number;
}

export const APPEND_INTENT_FILE = "append.json";

const stampOfStats = (stats: {
  ino: number;
  size: number;
  mtimeMs: number;
  ctimeMs: number;
}): Stamp => ({
  ino: stats.ino,
  size: stats.size,
  mtimeMs: stats.mtimeMs,
  ctimeMs: stats.ctimeMs,
});

/** The result of {@link appendInPlace}: the file's stamp after the append, and whether it holds only it. */
export interface AppendResult {
  stamp: Stamp;
  /** False when the file grew by more than these bytes (someone wrote beside the lock). */
  alone: boolean;
}

/**
 * Appends `bytes` to `root/path` in place, as durable as the atomic rewrite it replaces for a
 * new line at the end of a file (README "Writes and concurrent edits"): compare-and-swap against
 * the stamp the file was parsed with (undefined, nothing written, when the file changed or
 * vanished), then write, fsync. A failed write or fsync (a full disk) truncates the file back to
 * its previous size; a process that dies in the middle leaves an intent in the state directory,
 * and the next writer cuts a partly written line off ({@link recoverInterruptedAppend}).
 * Call with the tree lock held.
 */
export function appendInPlace(
  root: string,
  stateDir: string,
  path: string,
  bytes: Uint8Array,
  expected: Stamp,
): AppendResult | undefined {
  let fd: number;
  try {
    // No O_CREAT: a file that vanished is a change like any other; O_APPEND: an editor's bytes
    // written beside the lock are never overwritten.
    fd = openSync(join(root, path), constants.O_WRONLY | constants.O_APPEND);
  } catch {
    return undefined;
  }
  const intent = join(stateDir, APPEND_INTENT_FILE);
  try {
    const before = fstatSync(fd);
    if (!sameStamp(stampOfStats(before), expected)) return undefined;
    const record: AppendIntent = {
      path,
      ino: before.ino,
      from: before.size,
      to: before.size + bytes.length,
    };
    // Not flushed: it guards against a process that dies (its page cache survives it). An
    // fsync here measured 3-4 ms on this machine, as much as the append's own; a power cut in
    // the microseconds a write takes is left to `memory doctor` (README "Writes").
    writeFileSync(intent, JSON.stringify(record));
    try {
      let written = 0;
      while (written < bytes.length) written += writeSync(fd, bytes, written);
      fsyncSync(fd);
    } catch (error) {
      try {
        ftruncateSync(fd, before.size);
        fsyncSync(fd);
      } catch {}
      throw error;
    }
    const after = fstatSync(fd);
    return { stamp: stampOfStats(after), alone: after.size === record.to };
  } finally {
    closeSync(fd);
    try {
      unlinkSync(intent);
    } catch {}
  }
}

/**
 * Cuts off what an append interrupted by the death of its process left (a line written in part),
 * so no half line ever reads as an entry; a whole line stays (it was written, only not
 * acknowledged). Call with the tree lock held, before reading the files.
 */
export function recoverInterruptedAppend(root: string, stateDir: string): void {
  const intent = join(stateDir, APPEND_INTENT_FILE);
  let record: AppendIntent;
  try {
    record = JSON.parse(readFileSync(intent, "utf8")) as AppendIntent;
  } catch {
    return; // none (the usual case), or cut short itself: nothing was appended yet
  }
  const { path, ino, from, to } = record;
  if (
    typeof path === "string" &&
    path.endsWith(".md") &&
    !isAbsolute(path) &&
    !path.split(/[\\/]/).includes("..") &&
    Number.isInteger(from) &&
    Number.isInteger(to)
  ) {
    const file = join(root, path);
    try {
      const fd = openSync(file, "r+");
      try {
        const stats = fstatSync(fd);
        // Only the file appended to (same inode), and only a part of the line: a file that
        // reached `to` holds the whole line, one past it was written after.
        if (stats.ino === ino && stats.size > from && stats.size < to) {
          ftruncateSync(fd, from);
          fsyncSync(fd);
        }
      } finally {
        closeSync(fd);
      }
    } catch {}
  }
  try {
    unlinkSync(intent);
  } catch {}
}
