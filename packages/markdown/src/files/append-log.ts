import { closeSync, fstatSync, openSync, readFileSync, readSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type Stamp, sameStamp } from "./file-stamp.js";

/**
 * The last appends this package made in place, across processes (`.memory-state/appends.json`):
 * each file's stamp before and after. Each appender compared the file's stamp with `before`
 * under the tree lock before it wrote (the compare-and-swap of `appendInPlace`), so a chain of
 * these links from the stamp a process parsed a file at to the file's stamp now says the file
 * is those bytes plus appended lines: that process then reads and parses only the new bytes
 * instead of reading and hashing the whole file (another server worker's stores on a
 * 100,000-entry daily file). Any break in the chain (an edit, a log cut short or lost) falls back
 * to the hash check. Not flushed, like the append intent: it is a shortcut, never the truth.
 */
export interface AppendLink {
  path: string;
  before: Stamp;
  after: Stamp;
}

export const APPEND_LOG_FILE = "appends.json";

/** Links kept: enough for every worker's appends between two writes of another. */
export const APPEND_LOG_MAX = 64;

/** The log's links, oldest first; none when it is missing or unreadable (a write cut short). */
export function readAppendLog(stateDir: string): AppendLink[] {
  try {
    const links = JSON.parse(readFileSync(join(stateDir, APPEND_LOG_FILE), "utf8")) as unknown;
    return Array.isArray(links) ? (links as AppendLink[]) : [];
  } catch {
    return [];
  }
}

/** Adds a link (call with the tree lock held, after the append is flushed). */
export function logAppend(stateDir: string, link: AppendLink): void {
  const links = [...readAppendLog(stateDir), link].slice(-APPEND_LOG_MAX);
  writeFileSync(join(stateDir, APPEND_LOG_FILE), JSON.stringify(links));
}

/** Whether appends in the log alone lead `path` from stamp `from` to stamp `to`. */
export function appendedOnly(
  links: readonly AppendLink[],
  path: string,
  from: Stamp,
  to: Stamp,
): boolean {
  let at = from;
  for (const link of links) {
    if (link.path !== path || !isStamp(link.before) || !isStamp(link.after)) continue;
    if (sameStamp(link.before, at)) at = link.after;
  }
  return at !== from && sameStamp(at, to);
}

const isStamp = (value: unknown): value is Stamp =>
  typeof value === "object" &&
  value !== null &&
  ["ino", "size", "mtimeMs", "ctimeMs"].every(
    (field) => typeof (value as Record<string, unknown>)[field] === "number",
  );

/**
 * The bytes of `file` from `offset` to the end, if its stamp is still `stamp` before and after
 * the read (undefined otherwise: it changed meanwhile, or vanished).
 */
export function readTail(file: string, offset: number, stamp: Stamp): Buffer | undefined {
  let fd: number;
  try {
    fd = openSync(file, "r");
  } catch {
    return undefined;
  }
  try {
    const same = () => {
      const stats = fstatSync(fd);
      return sameStamp(
        { ino: stats.ino, size: stats.size, mtimeMs: stats.mtimeMs, ctimeMs: stats.ctimeMs },
        stamp,
      );
    };
    if (!same()) return undefined;
    const tail = Buffer.alloc(stamp.size - offset);
    let read = 0;
    while (read < tail.length) {
      const got = readSync(fd, tail, read, tail.length - read, offset + read);
      if (got === 0) return undefined;
      read += got;
    }
    return same() ? tail : undefined;
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}
