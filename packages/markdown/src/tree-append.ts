import type { FileEdit } from "./file-edit.js";
import type { Stamp } from "./files/file-stamp.js";
import { looksLikeEntry, parseEntryLine } from "./format/entry-line.js";
import type { FoundEntry } from "./format/markdown-file.js";
import type { TreeFile, TreeRow } from "./markdown-tree.js";
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
 * The file after `edit.append` was appended in place, its new lines parsed alone (the rest of
 * the file is as it was: see {@link isAppendable}); undefined when a new line does not read as a
 * whole, valid entry with its own time, and the file must then be read again.
 */
export function withAppendedLines(
  known: TreeFile,
  edit: FileEdit,
  bytes: Uint8Array,
  stamp: Stamp,
): TreeFile | undefined {
  const { eol } = known.parsed;
  const rows: TreeRow[] = [];
  const found: FoundEntry[] = [];
  let number = known.parsed.lines.length;
  for (const text of edit.append) {
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
    rows.push({
      entry,
      kind: "entry",
      source: { path: known.path, startLine: number, endLine: number },
      duplicates: [],
    });
  }
  // The arrays grow in place (O(new lines)): the previous TreeFile object is dropped with them.
  const lines = known.parsed.lines;
  const last = lines.at(-1);
  if (last && last.eol === "") last.eol = eol;
  for (const text of edit.append) lines.push({ text, eol });
  known.parsed.entries.push(...found);
  known.entries.push(...rows);
  known.hasher.update(bytes);
  return {
    ...known,
    ...stamp,
    hash: known.hasher.copy().digest("hex"),
    appendedFrom: appendedSince(known, rows),
  };
}

/** Past this many rows appended and not yet indexed (no index), the file is indexed whole. */
const MAX_PENDING_ROWS = 10_000;

/** The rows appended since the index last took the file: the previous ones, then these. */
function appendedSince(known: TreeFile, rows: TreeRow[]): TreeFile["appendedFrom"] {
  const previous = known.appendedFrom;
  if (!previous) return { hash: known.hash, rows };
  if (previous.rows.length + rows.length > MAX_PENDING_ROWS) return undefined;
  previous.rows.push(...rows);
  return previous;
}
