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

/**
 * Reads a file known by `stamp`, again until its stamp did not move across the read (up to 5
 * times): read without the lock, a writer's append may be landing, and a line written in part
 * must not be parsed. Undefined when the file vanished.
 */
export function readStable(
  file: string,
  stamp: Stamp,
): { bytes: Buffer; stamp: Stamp } | undefined {
  let current = stamp;
  let bytes: Buffer;
  for (let attempt = 0; ; attempt++) {
    try {
      bytes = readFileSync(file);
    } catch {
      return undefined;
    }
    const after = stampOf(file);
    if (!after) return undefined;
    if (sameStamp(after, current) || attempt === 4) return { bytes, stamp: after };
    current = after;
  }
}
