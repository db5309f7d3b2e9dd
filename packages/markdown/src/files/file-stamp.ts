import { type Dirent, lstatSync, readdirSync, readFileSync, statSync } from "node:fs";

/** File-system reads of the tree walk: decoding, change stamps, directory listings. */

const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
const lenient = new TextDecoder("utf-8", { ignoreBOM: true });

/** Reads a file's text; `invalid` when it is not valid UTF-8. */
export function decode(bytes: Uint8Array): { text: string; invalid: boolean } {
  try {
    return { text: decoder.decode(bytes), invalid: false };
  } catch {
    return { text: lenient.decode(bytes), invalid: true };
  }
}

export interface Stamp {
  ino: number;
  size: number;
  mtimeMs: number;
  ctimeMs: number;
}

export function stampOf(file: string): Stamp | undefined {
  // Plain (not bigint) stat: mtime/ctime in fractional milliseconds still tell two saves
  // apart, and the inode changes on every atomic rename.
  const stat = statSync(file, { throwIfNoEntry: false });
  if (!stat?.isFile()) return undefined;
  return { ino: stat.ino, size: stat.size, mtimeMs: stat.mtimeMs, ctimeMs: stat.ctimeMs };
}

export const sameStamp = (a: Stamp, b: Stamp) =>
  a.ino === b.ino && a.size === b.size && a.mtimeMs === b.mtimeMs && a.ctimeMs === b.ctimeMs;

export function entries(dir: string): Dirent[] {
  try {
    return readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
}

export function isRegular(file: string): boolean {
  try {
    return lstatSync(file).isFile();
  } catch {
    return false;
  }
}

/** Reads after the first before `readStable` gives up waiting for a file to hold still. */
const MAX_UNSTABLE_READS = 4;
const LINE_FEED = 0x0a;

/**
 * Reads a file known by `stamp`, again until its stamp did not move across the read (up to 5
 * times): read without the lock, a writer's append may be landing, and a line written in part
 * must not be parsed. Undefined when the file vanished.
 *
 * The bytes and the stamp returned always agree on the size: a parsed file's size and hash
 * describe the same bytes, or the next read could not tell an append from an edit (its hash
 * check on the first `size` bytes would fail, and the whole file be parsed and re-indexed
 * again). When the file changed across every read (writers appending to a large file faster
 * than it reads), the last bytes read are cut after their last line break, and the stamp gets
 * their size and a ctime of NaN: it equals no stamp, so the next refresh reads the file again,
 * and parses only what came after these bytes when the file only grew. `read` is replaceable
 * for tests (a writer landing during every read).
 */
export function readStable(
  file: string,
  stamp: Stamp,
  read: (file: string) => Buffer = readFileSync,
): { bytes: Buffer; stamp: Stamp } | undefined {
  let current = stamp;
  for (let attempt = 0; ; attempt++) {
    let bytes: Buffer;
    try {
      bytes = read(file);
    } catch {
      return undefined;
    }
    const after = stampOf(file);
    if (!after) return undefined;
    if (sameStamp(after, current)) return { bytes, stamp: after };
    if (attempt === MAX_UNSTABLE_READS) {
      const whole = bytes.subarray(0, bytes.lastIndexOf(LINE_FEED) + 1);
      return { bytes: whole, stamp: { ...after, size: whole.length, ctimeMs: Number.NaN } };
    }
    current = after;
  }
}
