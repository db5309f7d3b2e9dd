import { createInterface } from "node:readline";
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
  "createdAt",
  "updatedAt",
  "embedding",
] as const;

function toImportEntry(value: Record<string, unknown>): ImportEntry {
  const entry: Record<string, unknown> = {};
  for (const field of IMPORT_FIELDS) {
    // `null` means "absent" in JSON written by other tools; the backend validates the rest.
    if (value[field] !== undefined && value[field] !== null) entry[field] = value[field];
  }
  return entry as unknown as ImportEntry;
}

/**
 * Turns JSONL lines into import entries, streaming. Blank lines are skipped; a line that is not
 * a JSON object is recorded in `rejections` and skipped, so one bad line never stops an import.
 * `lineOf(index)` maps the position of a yielded entry (what the backend reports) back to its
 * line number, keeping only the skipped line numbers in memory.
 */
export class JsonlEntries {
  readonly rejections: LineRejection[] = [];
  /** Lines read so far. */
  lines = 0;
  // Sorted ascending: line numbers that yielded no entry.
  readonly #skipped: number[] = [];

  /**
   * Reads `input` line by line. The readline interface is created on the first pull, not
   * before: readline starts consuming the stream at once, and lines emitted before anyone
   * iterates are lost (the first ~64 KiB of an import would silently vanish).
   */
  async *read(input: NodeJS.ReadableStream): AsyncGenerator<ImportEntry> {
    const lines = createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY });
    for await (const raw of lines) {
      this.lines += 1;
      const lineNumber = this.lines;
      const line = lineNumber === 1 ? raw.replace(/^\uFEFF/, "") : raw;
      if (line.trim() === "") {
        this.#skipped.push(lineNumber);
        continue;
      }
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch (error) {
        this.#reject(lineNumber, "INVALID_JSON", `not valid JSON (${(error as Error).message})`);
        continue;
      }
      if (typeof value !== "object" || value === null || Array.isArray(value)) {
        this.#reject(
          lineNumber,
          "INVALID_INPUT",
          "expected a JSON object with at least key and content",
        );
        continue;
      }
      yield toImportEntry(value as Record<string, unknown>);
    }
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
