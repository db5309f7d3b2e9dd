import type { SkipSink } from "./mine-types.js";
import { readLines } from "./read-lines.js";

export type JsonRecord = Record<string, unknown>;

export function isRecord(value: unknown): value is JsonRecord {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function text(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

/**
 * The JSON objects of a JSONL file with their line numbers. A line that is not UTF-8, not JSON,
 * not an object or too large is reported to `skip` with its number and the next line is read.
 */
export async function* jsonlRecords(
  path: string,
  skip: SkipSink,
): AsyncGenerator<{ line: number; record: JsonRecord }> {
  for await (const item of readLines(path)) {
    if ("problem" in item) {
      skip({
        line: item.line,
        code: item.problem,
        reason: item.problem === "TOO_LARGE" ? "line too large" : "invalid UTF-8",
      });
      continue;
    }
    if (item.text.trim() === "") continue;
    let value: unknown;
    try {
      value = JSON.parse(item.text);
    } catch (error) {
      skip({ line: item.line, code: "MALFORMED", reason: `not JSON: ${(error as Error).message}` });
      continue;
    }
    if (!isRecord(value)) {
      skip({ line: item.line, code: "MALFORMED", reason: "not a JSON object" });
      continue;
    }
    yield { line: item.line, record: value };
  }
}
