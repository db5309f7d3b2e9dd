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

function sections(lines: string[]) {
  const out: { heading: string; body: Piece[] }[] = [{ heading: "", body: [] }];
  lines.forEach((line, i) => {
    if (HEADING.test(line)) out.push({ heading: line.trim(), body: [] });
    else out.at(-1)!.body.push({ text: line, startLine: i + 1, endLine: i + 1 });
  });
  return out.filter((section) => section.heading !== "" || section.body.some((p) => p.text.trim() !== ""));
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
    return lines.flatMap((text, i) => split({ text, startLine: piece.startLine + i, endLine: piece.startLine + i }, maxChars));
  }
  const out: Piece[] = [];
  for (let at = 0; at < piece.text.length; at += maxChars) {
    out.push({ text: piece.text.slice(at, at + maxChars), startLine: piece.startLine, endLine: piece.endLine });
  }
  return out;
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
      chunks.push({ index: chunks.length, heading: section.heading, content: section.heading, startLine: 0, endLine: 0 });
      continue;
    }
    let body: Piece | undefined;
    const emit = () => {
      if (!body) return;
      const content = section.heading ? `${section.heading}\n${body.text}` : body.text;
      chunks.push({ index: chunks.length, heading: section.heading, content, startLine: body.startLine, endLine: body.endLine });
    };
    for (const piece of pieces) {
      if (body && body.text.length + 2 + piece.text.length <= budget) {
        body = { text: `${body.text}\n\n${piece.text}`, startLine: body.startLine, endLine: piece.endLine };
        continue;
      }
      const previous = body;
      emit();
      body = { ...piece };
      if (previous && overlapChars > 0) {
        const tail = overlapTail(previous.text, Math.min(overlapChars, budget - piece.text.length - 1));
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
  const tail = text.slice(text.length - chars);
  const space = tail.search(/\s/);
  return (space >= 0 ? tail.slice(space + 1) : tail).trim();
}
