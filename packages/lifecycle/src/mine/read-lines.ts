import { createReadStream } from "node:fs";

/**
 * A JSONL line or a JSON-array element may hold at most this many bytes. A Claude Code line with
 * a pasted file or a tool result is rarely above 1 MiB; 32 MiB keeps one line well inside what a
 * JSON.parse of it costs in memory, and what is beyond is skipped with TOO_LARGE, never buffered.
 */
export const MAX_RECORD_BYTES = 32 * 1024 * 1024;

/** One line of a file: its text, or why it cannot be read. */
export type FileLine =
  | { line: number; text: string }
  | { line: number; problem: "INVALID_UTF8" | "TOO_LARGE" };

const decoder = new TextDecoder("utf-8", { fatal: true });

/** Decodes strict UTF-8 (a BOM is dropped); undefined when the bytes are not UTF-8. */
export function decodeUtf8(bytes: Uint8Array): string | undefined {
  try {
    return decoder.decode(bytes);
  } catch {
    return undefined;
  }
}

/**
 * Streams a file line by line as bytes, decoding each line on its own: the file is never one
 * string (a 200 MB session log costs one line of memory), a line with invalid UTF-8 is reported
 * by number and the next one is read, and a line over `maxBytes` is skipped without being kept.
 */
export async function* readLines(
  path: string,
  maxBytes = MAX_RECORD_BYTES,
): AsyncGenerator<FileLine> {
  let parts: Buffer[] = [];
  let size = 0;
  let tooLarge = false;
  let line = 1;
  const finish = (): FileLine => {
    const number = line++;
    if (tooLarge) return { line: number, problem: "TOO_LARGE" };
    let bytes = parts.length === 1 ? parts[0]! : Buffer.concat(parts);
    if (bytes.length > 0 && bytes[bytes.length - 1] === 0x0d) bytes = bytes.subarray(0, -1);
    const text = decodeUtf8(bytes);
    return text === undefined ? { line: number, problem: "INVALID_UTF8" } : { line: number, text };
  };
  for await (const chunk of createReadStream(path, { highWaterMark: 1024 * 1024 })) {
    const buffer = chunk as Buffer;
    let start = 0;
    while (start <= buffer.length) {
      const end = buffer.indexOf(0x0a, start);
      const piece = buffer.subarray(start, end === -1 ? buffer.length : end);
      if (!tooLarge) {
        size += piece.length;
        if (size > maxBytes) {
          tooLarge = true;
          parts = [];
        } else if (piece.length > 0) parts.push(piece);
      }
      if (end === -1) break;
      yield finish();
      parts = [];
      size = 0;
      tooLarge = false;
      start = end + 1;
    }
  }
  if (size > 0 || tooLarge) yield finish();
}
