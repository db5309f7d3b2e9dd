import { createHash } from "node:crypto";
import { constants, open } from "node:fs/promises";
import path from "node:path";
import type { CollectionProblem } from "./collection-types.js";

/** The largest note indexed, in bytes (1 MiB): larger files are reported, not read. */
export const MAX_NOTE_BYTES = 1024 * 1024;
// A NUL byte in the first block means a binary file, whatever its name.
const BINARY_PROBE_BYTES = 8192;

/** A note's text and content hash, or the problem that kept it from being read. */
export type NoteRead = { text: string; hash: string } | { problem: CollectionProblem };

/**
 * Reads a note (never through a symlink: the walk reports those) and checks it is text: at most
 * `maxBytes`, no NUL byte, valid UTF-8 (a BOM is dropped). The hash is of the bytes read.
 */
export async function readNote(
  root: string,
  relative: string,
  maxBytes: number,
): Promise<NoteRead> {
  const fail = (code: CollectionProblem["code"], message: string): NoteRead => ({
    problem: { path: relative, code, message },
  });
  let handle: import("node:fs/promises").FileHandle;
  try {
    // O_NOFOLLOW: a note replaced by a link between the walk and this read is refused too.
    handle = await open(path.join(root, relative), constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ELOOP") return fail("SYMLINK", "a symbolic link: never followed");
    return fail(
      "UNREADABLE",
      code === "EACCES" || code === "EPERM"
        ? "permission denied (check the file's permissions)"
        : (error as Error).message,
    );
  }
  try {
    const { size } = await handle.stat();
    if (size > maxBytes)
      return fail(
        "TOO_LARGE",
        `${size} bytes, over the ${maxBytes}-byte limit for a note: split it, or keep it out of the collection's pattern`,
      );
    const bytes = await handle.readFile();
    if (bytes.subarray(0, BINARY_PROBE_BYTES).includes(0))
      return fail("BINARY", "a binary file (it holds NUL bytes), not a Markdown note");
    let text: string;
    try {
      text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
    } catch {
      return fail("INVALID_UTF8", "not valid UTF-8: save the note as UTF-8");
    }
    return { text, hash: createHash("sha256").update(bytes).digest("hex") };
  } catch (error) {
    return fail("UNREADABLE", (error as Error).message);
  } finally {
    await handle.close();
  }
}
