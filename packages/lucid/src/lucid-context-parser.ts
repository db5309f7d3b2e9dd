/** One `- [tag] text` line of a `<lucid-context>` block. */
export interface ContextLine {
  tag: string;
  text: string;
}

export interface ParsedContext {
  /** False when the output was not empty and held no `<lucid-context>` block (a failure). */
  recognized: boolean;
  lines: ContextLine[];
  /** Lines inside the block that were not `- [tag] text` (skipped, never fatal). */
  skipped: number;
}

const OPEN = "<lucid-context>";
const CLOSE = "</lucid-context>";
// A tag is a short word; the text is everything after `]`, trimmed.
const LINE = /^- \[([A-Za-z0-9 _.:/-]{1,64})\]\s*(.*)$/;

/**
 * Parses the external tool's answer: the lines between `<lucid-context>` and
 * `</lucid-context>` (or the end of the output when the block is not closed), each
 * `- [tag] text`. Anything else inside the block (including text with NUL or an empty text)
 * is skipped and counted. Output that is only white space is an empty answer; other output
 * without the block is not recognized.
 */
export function parseLucidContext(output: string): ParsedContext {
  const all = output.split(/\r?\n/);
  const start = all.findIndex((line) => line.trim() === OPEN);
  if (start < 0) return { recognized: output.trim() === "", lines: [], skipped: 0 };
  const lines: ContextLine[] = [];
  let skipped = 0;
  for (const raw of all.slice(start + 1)) {
    const line = raw.trim();
    if (line === CLOSE) break;
    if (line === "") continue;
    const match = LINE.exec(line);
    const text = match?.[2]?.trim() ?? "";
    if (!match || text === "" || text.includes("\u0000")) {
      skipped++;
      continue;
    }
    lines.push({ tag: match[1]!.trim(), text });
  }
  return { recognized: true, lines, skipped };
}
