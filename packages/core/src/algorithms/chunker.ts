/** One chunk of a Markdown document. */
export interface MarkdownChunk {
  /** 0-based position of the chunk in the document. */
  index: number;
  /**
   * The section heading line (`#` to `###`) the chunk lives under (e.g. `## Preferences`), or ""
   * before any heading. Deeper headings stay inside their section.
   */
  heading: string;
  /**
   * The chunk text, starting with its heading line when there is one, then the deeper heading
   * lines open where the chunk starts (its heading path).
   */
  content: string;
  /** 1-based first and last source lines of the chunk's body. */
  startLine: number;
  endLine: number;
}

export interface ChunkOptions {
  /** Target chunk size in tokens; default 400. */
  maxTokens?: number;
  /** Tokens of the previous chunk repeated at the start of the next one in the same section; default 0. */
  overlapTokens?: number;
  /** Characters per token used to turn token budgets into characters; default 4. */
  charsPerToken?: number;
}

interface Piece {
  text: string;
  startLine: number;
  endLine: number;
}

/**
 * Headings that start a section (`#` to `###`, as the seed systems split). Deeper headings
 * (`####` to `######`) stay inside their section, so a deep subsection keeps its parent's
 * heading; a chunk that starts inside one repeats its heading path (`Section.paths`).
 */
const HEADING = /^#{1,3}\s+\S/;
const DEEP_HEADING = /^(#{4,6})\s+\S/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

interface Section {
  heading: string;
  body: Piece[];
  /** Deep heading lines open at each body line (by line number), outermost first. */
  paths: Map<number, string[]>;
}

function sections(lines: string[]): Section[] {
  const out: Section[] = [{ heading: "", body: [], paths: new Map() }];
  let path: { level: number; text: string }[] = [];
  // Inside a fenced code block a `# comment` line is code, not a heading.
  let fence: string | undefined;
  lines.forEach((line, i) => {
    const marker = FENCE.exec(line)?.[1];
    if (fence !== undefined) {
      if (
        marker !== undefined &&
        marker[0] === fence[0] &&
        marker.length >= fence.length &&
        line.trim() === marker
      ) {
        fence = undefined;
      }
    } else if (marker !== undefined) {
      fence = marker;
    } else if (HEADING.test(line)) {
      out.push({ heading: line.trim(), body: [], paths: new Map() });
      path = [];
      return;
    } else {
      const level = DEEP_HEADING.exec(line)?.[1]?.length;
      if (level !== undefined) {
        // A heading closes the open ones at its level or deeper; it is on its own line, so the
        // path before it is what a chunk starting here must repeat.
        path = path.filter((open) => open.level < level);
        out.at(-1)!.paths.set(
          i + 1,
          path.map((open) => open.text),
        );
        path = [...path, { level, text: line.trim() }];
        out.at(-1)!.body.push({ text: line, startLine: i + 1, endLine: i + 1 });
        return;
      }
    }
    if (path.length > 0)
      out.at(-1)!.paths.set(
        i + 1,
        path.map((open) => open.text),
      );
    out.at(-1)!.body.push({ text: line, startLine: i + 1, endLine: i + 1 });
  });
  return out.filter(
    (section) => section.heading !== "" || section.body.some((p) => p.text.trim() !== ""),
  );
}

/** True when every non-blank line of a text is a deep heading (a body that says nothing). */
function headingsOnly(text: string): boolean {
  return text.split("\n").every((line) => line.trim() === "" || DEEP_HEADING.test(line));
}

function paragraphs(lines: Piece[]): Piece[] {
  const out: Piece[] = [];
  let current: Piece | undefined;
  for (const line of lines) {
    if (line.text.trim() === "") {
      current = undefined;
      continue;
    }
    if (current) {
      current.text += `\n${line.text}`;
      current.endLine = line.endLine;
    } else {
      current = { ...line };
      out.push(current);
    }
  }
  return out;
}

/** Splits a piece that is too big: by lines, then (for one huge line) by characters. */
function split(piece: Piece, maxChars: number): Piece[] {
  if (piece.text.length <= maxChars) return [piece];
  const lines = piece.text.split("\n");
  if (lines.length > 1) {
    return lines.flatMap((text, i) =>
      split({ text, startLine: piece.startLine + i, endLine: piece.startLine + i }, maxChars),
    );
  }
  const out: Piece[] = [];
  const text = piece.text;
  for (let at = 0; at < text.length; ) {
    let end = Math.min(text.length, at + maxChars);
    // Never cut a surrogate pair in two: a lone surrogate cannot be stored or embedded.
    if (end < text.length && isHighSurrogate(text.charCodeAt(end - 1)))
      end = end - 1 > at ? end - 1 : end + 1;
    out.push({ text: text.slice(at, end), startLine: piece.startLine, endLine: piece.endLine });
    at = end;
  }
  return out;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/**
 * Splits Markdown into chunks of about `maxTokens` tokens (at `charsPerToken` characters per
 * token): first by headings (`#` to `###`), then by paragraphs, then by lines. Every chunk
 * starts with the heading it lives under, then the deeper headings (`####`...) open where it
 * starts, so a chunk is understandable on its own. With `overlapTokens`, the tail of the
 * previous chunk of the same section is repeated at the start of the next.
 */
export function chunkMarkdown(markdown: string, options: ChunkOptions = {}): MarkdownChunk[] {
  const charsPerToken = options.charsPerToken ?? 4;
  const maxChars = Math.max(1, (options.maxTokens ?? 400) * charsPerToken);
  const overlapChars = Math.max(0, (options.overlapTokens ?? 0) * charsPerToken);
  const chunks: MarkdownChunk[] = [];
  for (const section of sections(markdown.replace(/\r\n?/g, "\n").split("\n"))) {
    // The longest heading path a chunk of this section may repeat counts against every chunk.
    let pathCost = 0;
    for (const path of section.paths.values())
      pathCost = Math.max(
        pathCost,
        path.reduce((sum, line) => sum + line.length + 1, 0),
      );
    const headerCost = (section.heading ? section.heading.length + 1 : 0) + pathCost;
    const budget = Math.max(1, maxChars - headerCost);
    const pieces = paragraphs(section.body).flatMap((p) => split(p, budget));
    if (pieces.every((piece) => headingsOnly(piece.text))) {
      if (section.heading === "") continue; // a preamble of deep headings only says nothing
      chunks.push({
        index: chunks.length,
        heading: section.heading,
        content: section.heading,
        startLine: 0,
        endLine: 0,
      });
      continue;
    }
    let body: Piece | undefined;
    let path: string[] = [];
    const emit = () => {
      // Deep headings with nothing under them in this chunk: the next chunk repeats them.
      if (!body || headingsOnly(body.text)) return;
      const header = [...(section.heading ? [section.heading] : []), ...path];
      const content = header.length > 0 ? `${header.join("\n")}\n${body.text}` : body.text;
      chunks.push({
        index: chunks.length,
        heading: section.heading,
        content,
        startLine: body.startLine,
        endLine: body.endLine,
      });
    };
    for (const piece of pieces) {
      // Lines split out of one paragraph are re-joined as lines, paragraphs with a blank line.
      const separator = piece.startLine === (body?.endLine ?? 0) + 1 ? "\n" : "\n\n";
      if (body && body.text.length + separator.length + piece.text.length <= budget) {
        body = {
          text: `${body.text}${separator}${piece.text}`,
          startLine: body.startLine,
          endLine: piece.endLine,
        };
        continue;
      }
      const previous = body;
      emit();
      body = { ...piece };
      path = section.paths.get(piece.startLine) ?? [];
      if (previous && overlapChars > 0 && !headingsOnly(previous.text)) {
        const tail = overlapTail(
          previous.text,
          Math.min(overlapChars, budget - piece.text.length - 1),
        );
        if (tail) body.text = `${tail}\n${piece.text}`;
      }
    }
    emit();
  }
  return chunks;
}

/** The last `chars` characters of a text, started at a word boundary. */
function overlapTail(text: string, chars: number): string {
  if (chars <= 0) return "";
  if (text.length <= chars) return text;
  let tail = text.slice(text.length - chars);
  // Do not start in the middle of a surrogate pair.
  if (isHighSurrogate(text.charCodeAt(text.length - chars - 1))) tail = tail.slice(1);
  const space = tail.search(/\s/);
  return (space >= 0 ? tail.slice(space + 1) : tail).trim();
}
