import { closeSync, fsyncSync, mkdirSync, openSync, writeSync } from "node:fs";
import { dirname, join } from "node:path";
import { STATE_DIR } from "../format/layout.js";

/** Where previous versions of rewritten files are kept, relative to the root. */
export const HISTORY_DIR = `${STATE_DIR}/history`;

/** `2026-11-24T09:18:36.123Z` -> `2026-11-24T09-18-36-123Z` (a file name on every system). */
function stamp(at: Date): string {
  return at.toISOString().replace(/[:.]/g, "-");
}

/**
 * Copies a file's previous bytes to `.memory-state/history/<path without .md>-<time>.md`
 * (`-2`, `-3`... when that name exists: a version is never overwritten), flushed to disk.
 * Returns the copy's path relative to the root.
 */
export function keepPreviousVersion(
  root: string,
  path: string,
  bytes: Uint8Array,
  at: Date,
): string {
  const base = `${HISTORY_DIR}/${path.replace(/\.md$/, "")}-${stamp(at)}`;
  mkdirSync(dirname(join(root, base)), { recursive: true });
  for (let attempt = 1; ; attempt++) {
    const relative = `${base}${attempt === 1 ? "" : `-${attempt}`}.md`;
    let fd: number;
    try {
      fd = openSync(join(root, relative), "wx", 0o644);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "EEXIST") continue;
      throw error;
    }
    try {
      let written = 0;
      while (written < bytes.length) written += writeSync(fd, bytes, written);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    return relative;
  }
}
