/** One chunk of a Markdown document. */
export interface MarkdownChunk {
  /** 0-based position of the chunk in the document. */
  index: number;
  /** The heading line the chunk lives under (e.g. `## Preferences`), or "" before any heading. */
  heading: string;
  /** The chunk text, starting with its heading line when there is one. */
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

const HEADING = /^#{1,6}\s+\S/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

function sections(lines: string[]) {
  const out: { heading: string; body: Piece[] }[] = [{ heading: "", body: [] }];
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
      out.push({ heading: line.trim(), body: [] });
      return;
    }
    out.at(-1)!.body.push({ text: line, startLine: i + 1, endLine: i + 1 });
  });
  return out.filter(
    (section) => section.heading !== "" || section.body.some((p) => p.text.trim() !== ""),
  );
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
 * token): first by headings, then by paragraphs, then by lines. Every chunk starts with the
 * heading it lives under, so a chunk is understandable on its own. With `overlapTokens`, the
 * tail of the previous chunk of the same section is repeated at the start of the next.
 */
export function chunkMarkdown(markdown: string, options: ChunkOptions = {}): MarkdownChunk[] {
  const charsPerToken = options.charsPerToken ?? 4;
  const maxChars = Math.max(1, (options.maxTokens ?? 400) * charsPerToken);
  const overlapChars = Math.max(0, (options.overlapTokens ?? 0) * charsPerToken);
  const chunks: MarkdownChunk[] = [];
  for (const section of sections(markdown.replace(/\r\n?/g, "\n").split("\n"))) {
    const headerCost = section.heading ? section.heading.length + 1 : 0;
    const budget = Math.max(1, maxChars - headerCost);
    const pieces = paragraphs(section.body).flatMap((p) => split(p, budget));
    if (pieces.length === 0) {
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
    const emit = () => {
      if (!body) return;
      const content = section.heading ? `${section.heading}\n${body.text}` : body.text;
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
      if (previous && overlapChars > 0) {
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
