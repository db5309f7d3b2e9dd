import {
  dominantEol,
  type FileLine,
  joinLines,
  type ParsedMarkdown,
} from "./format/markdown-file.js";

/** A change to one file: lines replaced, deleted, appended. */
export interface FileEdit {
  replace: Map<number, string>;
  remove: Set<number>;
  append: string[];
}

/**
 * A file's new text after an edit; undefined when the file would hold nothing but its title
 * and blank lines (it is then deleted). Untouched lines keep their exact bytes and line breaks.
 */
export function editedText(
  parsed: ParsedMarkdown | undefined,
  edit: FileEdit,
  title: string | undefined,
): string | undefined {
  const lines: FileLine[] = [];
  const source = parsed?.lines ?? [];
  const eol = parsed ? dominantEol(source) : "\n";
  source.forEach((line, index) => {
    const number = index + 1;
    if (edit.remove.has(number)) return;
    const replacement = edit.replace.get(number);
    lines.push(replacement === undefined ? line : { text: replacement, eol: line.eol });
  });
  if (edit.append.length > 0) {
    if (lines.length === 0 && title !== undefined) {
      lines.push({ text: title, eol }, { text: "", eol });
    }
    const last = lines.at(-1);
    if (last && last.eol === "") last.eol = eol;
    for (const text of edit.append) lines.push({ text, eol });
  }
  const meaningful = lines.some(
    (line) => line.text.trim() !== "" && (title === undefined || line.text !== title),
  );
  if (!meaningful && parsed !== undefined) return undefined;
  return joinLines(lines, parsed?.bom ?? false);
}

/** An edit that does nothing yet. */
export function emptyEdit(): FileEdit {
  return { replace: new Map(), remove: new Set(), append: [] };
}
