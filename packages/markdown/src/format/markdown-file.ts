import { chunkMarkdown } from "@memory/core";
import { type EntryLine, looksLikeEntry, parseEntryLine } from "./entry-line.js";
import type { FileRole } from "./layout.js";

/** One line of a file with its own line break (`""` for a last line without one). */
export interface FileLine {
  text: string;
  eol: string;
}

/** An entry line found in a file. */
export interface FoundEntry extends EntryLine {
  /** 1-based line number. */
  line: number;
}

/** A line the parser could not read (kept verbatim, indexed as free text). */
export interface FileProblem {
  line: number;
  message: string;
}

/** A chunk of free text (everything that is not an entry line). */
export interface FreeTextChunk {
  /** Stable within the file: the heading's slug, plus `~N` for the N-th chunk under it. */
  anchor: string;
  content: string;
  startLine: number;
  endLine: number;
}

/** A file split into lines, entries, problems and free-text chunks. Never throws. */
export interface ParsedMarkdown {
  bom: boolean;
  lines: FileLine[];
  entries: FoundEntry[];
  problems: FileProblem[];
  chunks: FreeTextChunk[];
  /** The last line is inside a fenced code block: a line appended there would not be an entry. */
  endsInFence: boolean;
  /** The line break most used (`dominantEol`), which lines appended to the file get. */
  eol: string;
}

/** Chunking of free text: about 400 tokens with 80 of overlap (the reference systems' values). */
export const CHUNK_TOKENS = 400;
export const CHUNK_OVERLAP_TOKENS = 80;

/** Splits text into lines, keeping each line break (LF, CRLF or CR) with its line. */
export function splitLines(text: string): FileLine[] {
  const lines: FileLine[] = [];
  const pattern = /\r\n|\r|\n/g;
  let start = 0;
  for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
    lines.push({ text: text.slice(start, match.index), eol: match[0] });
    start = match.index + match[0].length;
  }
  if (start < text.length) lines.push({ text: text.slice(start), eol: "" });
  return lines;
}

/** The lines joined back into the file's text (with its BOM): `joinLines(splitLines(t)) === t`. */
export function joinLines(lines: readonly FileLine[], bom = false): string {
  let text = bom ? "\ufeff" : "";
  for (const line of lines) text += line.text + line.eol;
  return text;
}

/** The line break most used in the file (LF when it has none). */
export function dominantEol(lines: readonly FileLine[]): string {
  const counts = new Map<string, number>();
  for (const line of lines) if (line.eol) counts.set(line.eol, (counts.get(line.eol) ?? 0) + 1);
  let best = "\n";
  let most = 0;
  for (const [eol, count] of counts)
    if (count > most) {
      best = eol;
      most = count;
    }
  return best;
}

/** GitHub-style heading slug: `## My Prefs!` -> `my-prefs`. */
export function headingSlug(heading: string): string {
  const slug = heading
    .replace(/^#+\s*/, "")
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s+/g, "-");
  return slug === "" ? "section" : slug;
}

/**
 * Parses a memory file. Entry lines become entries (when the file's role reads entries); every
 * other line is free text, chunked by heading. A line that starts like an entry but cannot be
 * read is reported as a problem and treated as free text; nothing is ever dropped.
 */
export function parseMarkdownFile(text: string, role: FileRole): ParsedMarkdown {
  const bom = text.startsWith("\ufeff");
  const lines = splitLines(bom ? text.slice(1) : text);
  const entries: FoundEntry[] = [];
  const problems: FileProblem[] = [];
  const free: string[] = [];
  let fence: string | undefined;
  lines.forEach(({ text: line }, index) => {
    // Inside a fenced code block nothing is an entry (a person may quote an entry line there).
    const marker = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence !== undefined) {
      if (marker !== undefined && marker[0] === fence[0] && marker.length >= fence.length)
        fence = undefined;
    } else if (marker !== undefined) fence = marker;
    else if (role.entries && looksLikeEntry(line)) {
      const parsed = parseEntryLine(line, role.daily);
      if (typeof parsed !== "string") {
        entries.push({ ...parsed, line: index + 1 });
        free.push("");
        return;
      }
      problems.push({ line: index + 1, message: `unreadable entry line: ${parsed}` });
    }
    free.push(line);
  });
  const chunks = freeTextChunks(free);
  const eol = dominantEol(lines);
  return { bom, lines, entries, problems, chunks, endsInFence: fence !== undefined, eol };
}

/** Heading-aware chunks of the free text, entry lines blanked so line numbers stay true. */
function freeTextChunks(free: string[]): FreeTextChunk[] {
  if (!free.some((line) => line.trim() !== "" && !/^#{1,6}\s/.test(line))) return [];
  const seen = new Map<string, number>();
  const chunks: FreeTextChunk[] = [];
  for (const chunk of chunkMarkdown(free.join("\n"), {
    maxTokens: CHUNK_TOKENS,
    overlapTokens: CHUNK_OVERLAP_TOKENS,
  })) {
    // A heading alone (its section holds only entries or nothing) is not worth recalling.
    if (chunk.startLine === 0) continue;
    const slug = chunk.heading === "" ? "top" : headingSlug(chunk.heading);
    const count = (seen.get(slug) ?? 0) + 1;
    seen.set(slug, count);
    chunks.push({
      anchor: count === 1 ? slug : `${slug}~${count}`,
      content: chunk.content,
      startLine: chunk.startLine,
      endLine: chunk.endLine,
    });
  }
  return chunks;
}
