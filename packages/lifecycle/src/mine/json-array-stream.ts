import { createReadStream } from "node:fs";
import { decodeUtf8, MAX_RECORD_BYTES } from "./read-lines.js";

/** One element of a top-level JSON array, or why it (or the file) cannot be read. */
export type ArrayElement =
  | { line: number; value: unknown }
  | { line: number; problem: "MALFORMED" | "INVALID_UTF8" | "TOO_LARGE"; reason: string };

type ScanState = "before" | "between" | "element" | "done";

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const NEWLINE = 0x0a;
const OPEN = new Set([0x7b, 0x5b]);
const CLOSE = new Set([0x7d, 0x5d]);
const SPACE = new Set([0x20, 0x09, 0x0a, 0x0d]);

/**
 * Streams the elements of a file whose top level is a JSON array (ChatGPT and Claude.ai
 * exports), so a 200 MB export is never one string: the bytes are scanned once (strings,
 * escapes and nesting tracked; every structural byte is ASCII, so UTF-8 needs no care) and each
 * element is decoded and parsed alone. An element over `maxBytes` is skipped with TOO_LARGE
 * without being kept; a malformed element is reported with the line it starts on and the scan
 * goes on to the next one, since the byte structure, not JSON.parse, finds its end.
 */
export async function* readJsonArray(
  path: string,
  maxBytes = MAX_RECORD_BYTES,
): AsyncGenerator<ArrayElement> {
  let line = 1;
  let state: ScanState = "before";
  let depth = 0;
  let inString = false;
  let escaped = false;
  let scalar = false;
  let startLine = 1;
  let parts: Buffer[] = [];
  let size = 0;
  let tooLarge = false;
  let bom = 0;

  const finish = (): ArrayElement => {
    const at = startLine;
    const large = tooLarge;
    const bytes = Buffer.concat(parts);
    parts = [];
    size = 0;
    tooLarge = false;
    state = "between";
    if (large)
      return {
        line: at,
        problem: "TOO_LARGE",
        reason: `element over ${maxBytes} bytes: split the export or pass its conversations as separate files`,
      };
    const text = decodeUtf8(bytes);
    if (text === undefined) return { line: at, problem: "INVALID_UTF8", reason: "invalid UTF-8" };
    try {
      return { line: at, value: JSON.parse(text) };
    } catch (error) {
      return { line: at, problem: "MALFORMED", reason: (error as Error).message };
    }
  };
  const keep = (buffer: Buffer, from: number, to: number) => {
    if (tooLarge || to <= from) return;
    size += to - from;
    if (size > maxBytes) {
      tooLarge = true;
      parts = [];
    } else parts.push(buffer.subarray(from, to));
  };

  for await (const chunk of createReadStream(path, { highWaterMark: 1024 * 1024 })) {
    const buffer = chunk as Buffer;
    let from = state === "element" ? 0 : -1;
    for (let i = 0; i < buffer.length; i++) {
      const byte = buffer[i]!;
      if (byte === NEWLINE) line++;
      if (state === "element") {
        if (inString) {
          if (escaped) escaped = false;
          else if (byte === BACKSLASH) escaped = true;
          else if (byte === QUOTE) {
            inString = false;
            if (scalar && depth === 0) {
              keep(buffer, from, i + 1);
              yield finish();
            }
          }
        } else if (byte === QUOTE) inString = true;
        else if (OPEN.has(byte)) depth++;
        else if (CLOSE.has(byte) && depth > 0) {
          depth--;
          if (depth === 0 && !scalar) {
            keep(buffer, from, i + 1);
            yield finish();
          }
        } else if (scalar && depth === 0 && (byte === 0x2c || byte === 0x5d || SPACE.has(byte))) {
          keep(buffer, from, i);
          yield finish();
          if (byte === 0x5d) state = "done";
        }
        continue;
      }
      if (SPACE.has(byte)) continue;
      if (state === "before") {
        // A UTF-8 byte order mark before the array is allowed.
        if (bom < 3 && byte === [0xef, 0xbb, 0xbf][bom]) {
          bom++;
          continue;
        }
        if (byte !== 0x5b) {
          yield { line, problem: "MALFORMED", reason: "the file is not a JSON array" };
          return;
        }
        state = "between";
      } else if (state === "between") {
        if (byte === 0x2c) continue;
        if (byte === 0x5d) {
          state = "done";
          continue;
        }
        state = "element";
        startLine = line;
        from = i;
        scalar = !OPEN.has(byte);
        depth = scalar ? 0 : 1;
        inString = byte === QUOTE;
        escaped = false;
      } else {
        yield { line, problem: "MALFORMED", reason: "text after the end of the JSON array" };
        return;
      }
    }
    if (state === "element") keep(buffer, Math.max(from, 0), buffer.length);
  }
  // `finish` (a closure) changes `state`, which TypeScript's narrowing cannot see.
  const end = state as ScanState;
  if (end !== "done")
    yield {
      line,
      problem: "MALFORMED",
      reason:
        end === "before"
          ? "the file is empty"
          : "the JSON array is cut off (unexpected end of file): export it again",
    };
}
