import { createHash } from "node:crypto";
import type { FileEdit } from "./file-edit.js";
import type { Stamp } from "./files/file-stamp.js";
import { looksLikeEntry, parseEntryLine } from "./format/entry-line.js";
import { type FileLine, type FoundEntry, splitLines } from "./format/markdown-file.js";
import type { AppendedRows, TreeFile, TreeRow } from "./markdown-tree.js";
import { entryOfLine } from "./row-entry.js";

/**
 * True when an append to this file changes nothing but the lines appended, so they can be
 * parsed alone: no free text (its chunks are dated by the file's modification time and end
 * where the next text starts), no entry dated by the file, no problem, no open code fence
 * (an appended line would not be an entry there), valid UTF-8. A file written by this library
 * alone always qualifies.
 */
export function isAppendable(file: {
  parsed: TreeFile["parsed"];
  chunks: readonly TreeRow[];
  problems: readonly unknown[];
  invalidUtf8: boolean;
  role: TreeFile["role"];
}): boolean {
  return (
    file.role.entries &&
    !file.invalidUtf8 &&
    file.chunks.length === 0 &&
    file.problems.length === 0 &&
    !file.parsed.endsInFence &&
    file.parsed.lines.length > 0 &&
    file.parsed.entries.every((found) => found.metadata?.createdAt !== undefined)
  );
}

/** An edit that only appends lines to a file that exists and can take them in place. */
export function isAppendOnly(known: TreeFile, edit: FileEdit): boolean {
  return (
    known.appendable && edit.replace.size === 0 && edit.remove.size === 0 && edit.append.length > 0
  );
}

/** The bytes an append-only edit adds: a line break first when the file's last line has none. */
export function appendedBytes(known: TreeFile, edit: FileEdit): Buffer {
  const { eol } = known.parsed;
  const last = known.parsed.lines.at(-1);
  let text = last && last.eol === "" ? eol : "";
  for (const line of edit.append) text += line + eol;
  return Buffer.from(text, "utf8");
}

/**
 * The file after `edit.append` was appended in place by this process (see `appendedLines`).
 */
export function withAppendedLines(
  known: TreeFile,
  edit: FileEdit,
  bytes: Uint8Array,
  stamp: Stamp,
): { file: TreeFile; added: TreeRow[] } | undefined {
  const { eol } = known.parsed;
  const lines = edit.append.map((text) => ({ text, eol }));
  return appendedLines(known, lines, bytes, stamp, true);
}

/**
 * The file read again after another process (or an editor) only appended whole lines to it, as
 * this package does: same inode, the bytes it was parsed from unchanged (their hash), then new
 * lines ending with a line break. Only the new lines are parsed; undefined when it did anything
 * else, or a new line does not read as a whole entry (the file is then parsed whole).
 */
export function grownFile(
  known: TreeFile,
  bytes: Buffer,
  stamp: Stamp,
): { file: TreeFile; added: TreeRow[] } | undefined {
  if (!known.appendable || stamp.ino !== known.ino || bytes.length <= known.size) return undefined;
  if (known.parsed.lines.at(-1)?.eol === "") return undefined;
  const prefix = createHash("sha256").update(bytes.subarray(0, known.size));
  if (prefix.digest("hex") !== known.hash) return undefined;
  const tail = bytes.subarray(known.size);
  let text: string;
  try {
    text = strict.decode(tail);
  } catch {
    return undefined;
  }
  const lines = splitLines(text);
  if (lines.length === 0 || lines.at(-1)?.eol === "") return undefined;
  return appendedLines(known, lines, tail, stamp, false);
}

const strict = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/**
 * The file with `lines` appended (`bytes` are theirs), its new lines parsed alone (the rest of
 * the file is as it was: see {@link isAppendable}); undefined when a new line does not read as a
 * whole, valid entry with its own time. `endLast`: the file's last line gets a line break first
 * (an append of this process adds one when it has none).
 */
function appendedLines(
  known: TreeFile,
  lines: FileLine[],
  bytes: Uint8Array,
  stamp: Stamp,
  endLast: boolean,
): { file: TreeFile; added: TreeRow[] } | undefined {
  const added: TreeRow[] = [];
  const found: FoundEntry[] = [];
  let number = known.parsed.lines.length;
  for (const { text } of lines) {
    number++;
    if (!looksLikeEntry(text)) return undefined;
    const parsed = parseEntryLine(text, known.role.daily);
    if (typeof parsed === "string" || parsed.metadata?.createdAt === undefined) return undefined;
    let broken = false;
    const entry = entryOfLine(parsed, parsed.metadata, known.namespace, known.role, "", () => {
      broken = true;
    });
    if (!entry || broken) return undefined;
    found.push({ ...parsed, line: number });
    added.push({
      entry,
      kind: "entry",
      source: { path: known.path, startLine: number, endLine: number },
      duplicates: [],
    });
  }
  // The arrays grow in place (O(new lines)): the previous TreeFile object is dropped with them.
  const all = known.parsed.lines;
  const last = all.at(-1);
  if (endLast && last && last.eol === "") last.eol = known.parsed.eol;
  all.push(...lines);
  known.parsed.entries.push(...found);
  known.entries.push(...added);
  known.hasher.update(bytes);
  const hash = known.hasher.copy().digest("hex");
  const file: TreeFile = {
    ...known,
    ...stamp,
    hash,
    appendedFrom: appendedSince(known, added, hash),
  };
  return { file, added };
}

/** Past this many rows appended and not yet indexed (no index), the file is indexed whole. */
const MAX_PENDING_ROWS = 10_000;

/** The rows appended since the file was read whole: the previous ones, then these. */
function appendedSince(known: TreeFile, rows: TreeRow[], hash: string): AppendedRows | undefined {
  const previous = known.appendedFrom ?? { hash: known.hash, rows: [], steps: [] };
  if (previous.rows.length + rows.length > MAX_PENDING_ROWS) return undefined;
  previous.rows.push(...rows);
  previous.steps.push({ hash, rows: previous.rows.length });
  return previous;
}
