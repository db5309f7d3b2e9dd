import type { ImportEntry } from "@memory/api";

/** A line that could not become an entry, or an entry the backend rejected. */
export interface LineRejection {
  /** 1-based line number in the input. */
  line: number;
  code: string;
  message: string;
  key?: string;
}

// Fields of an exported entry that an import can carry; score and explain are recall-only.
const IMPORT_FIELDS = [
  "id",
  "key",
  "content",
  "category",
  "namespace",
  "sessionId",
  "importance",
  "supersededBy",
  "supersessionRecord",
  "conflictRecord",
  "relations",
  "createdAt",
  "updatedAt",
  "embedding",
] as const;

const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;
const BOM = "\uFEFF";

function toImportEntry(value: Record<string, unknown>): ImportEntry {
  const entry: Record<string, unknown> = {};
  // `null` is passed on, not dropped: the library refuses it (docs/input-rules.md), as HTTP and
  // MCP do, so a line with `"namespace": null` is rejected instead of landing in "default".
  for (const field of IMPORT_FIELDS) {
    if (value[field] !== undefined) entry[field] = value[field];
  }
  return entry as unknown as ImportEntry;
}

/** The byte offset of the first invalid UTF-8 sequence (for the rejection message). */
function firstInvalidByte(bytes: Uint8Array): number {
  const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
  let low = 0;
  let high = bytes.length;
  // The longest valid prefix, by bisection: a prefix that ends inside a valid character fails
  // too, so the answer is within 3 bytes of the invalid sequence; good enough for a message.
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    try {
      decoder.decode(bytes.subarray(0, middle));
      low = middle;
    } catch {
      high = middle - 1;
    }
  }
  return low;
}

/**
 * Turns JSONL bytes into import entries, streaming. Each line is decoded on its own with a fatal
 * UTF-8 decoder: a line with invalid bytes is rejected (reported with its line number) instead
 * of being imported with U+FFFD in place of the bad bytes. Blank lines are skipped; a line that
 * is not a JSON object is recorded in `rejections` and skipped, so one bad line never stops an
 * import. `lineOf(index)` maps the position of a yielded entry (what the backend reports) back
 * to its line number, keeping only the skipped line numbers in memory.
 */
export class JsonlEntries {
  readonly rejections: LineRejection[] = [];
  /** Lines read so far. */
  lines = 0;
  // Sorted ascending: line numbers that yielded no entry.
  readonly #skipped: number[] = [];
  readonly #decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

  /** Reads `input` line by line; lines end with `\n` or `\r\n`. */
  async *read(input: NodeJS.ReadableStream): AsyncGenerator<ImportEntry> {
    let pending: Buffer[] = [];
    for await (const chunk of input as AsyncIterable<Buffer | string>) {
      let bytes = typeof chunk === "string" ? Buffer.from(chunk, "utf8") : chunk;
      for (let end = bytes.indexOf(NEWLINE); end !== -1; end = bytes.indexOf(NEWLINE)) {
        pending.push(bytes.subarray(0, end));
        const entry = this.#line(Buffer.concat(pending));
        pending = [];
        if (entry) yield entry;
        bytes = bytes.subarray(end + 1);
      }
      if (bytes.length > 0) pending.push(bytes);
    }
    if (pending.length > 0) {
      const entry = this.#line(Buffer.concat(pending));
      if (entry) yield entry;
    }
  }

  #line(raw: Buffer): ImportEntry | undefined {
    this.lines += 1;
    const lineNumber = this.lines;
    const bytes = raw.at(-1) === CARRIAGE_RETURN ? raw.subarray(0, -1) : raw;
    let text: string;
    try {
      text = this.#decoder.decode(bytes);
    } catch {
      this.#reject(
        lineNumber,
        "INVALID_INPUT",
        `not valid UTF-8 (bad bytes near byte ${firstInvalidByte(bytes) + 1} of the line); re-encode the file as UTF-8`,
      );
      return undefined;
    }
    if (lineNumber === 1 && text.startsWith(BOM)) text = text.slice(1);
    if (text.trim() === "") {
      this.#skipped.push(lineNumber);
      return undefined;
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      this.#reject(lineNumber, "INVALID_JSON", `not valid JSON (${(error as Error).message})`);
      return undefined;
    }
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      this.#reject(
        lineNumber,
        "INVALID_INPUT",
        "expected a JSON object with at least key and content",
      );
      return undefined;
    }
    return toImportEntry(value as Record<string, unknown>);
  }

  #reject(line: number, code: string, message: string): void {
    this.#skipped.push(line);
    this.rejections.push({ line, code, message });
  }

  /** The line number of the `index`-th (0-based) entry yielded. */
  lineOf(index: number): number {
    let line = index + 1;
    for (const skipped of this.#skipped) {
      if (skipped > line) break;
      line += 1;
    }
    return line;
  }
}
