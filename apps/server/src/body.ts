import { HttpError } from "./http-error.js";

function tooLarge(limit: number, what: string): HttpError {
  return new HttpError(
    "PAYLOAD_TOO_LARGE",
    `The ${what} is larger than ${limit} bytes; send less, or raise the limit ([server].max_body_bytes / MEMORY_SERVER_MAX_BODY_BYTES, [server].max_import_bytes for imports).`,
  );
}

/** Rejects a declared Content-Length above `limit` before any byte is read. */
export function checkContentLength(request: Request, limit: number, what = "request body"): void {
  const header = request.headers.get("content-length");
  if (header === null) return;
  const length = Number(header);
  if (!Number.isSafeInteger(length) || length < 0) {
    throw new HttpError("INVALID_INPUT", `Content-Length "${header}" is not a valid length.`);
  }
  if (length > limit) throw tooLarge(limit, what);
}

/**
 * Reads the body as UTF-8 text, bounded by `limit`.
 *
 * A declared Content-Length is checked against the limit before any byte is read, and Node's
 * HTTP parser then delivers exactly that many bytes: such a body is read whole through
 * `arrayBuffer()`, which @hono/node-server answers from the socket directly (the streamed
 * path builds a web `Request` and a `ReadableStream` per request: about a seventh of a small
 * recall's server CPU in a profile, docs/benchmarks.md). A body without one (chunked) is
 * streamed and counted as it arrives, so it cannot exceed `limit` either.
 */
export async function readBodyText(request: Request, limit: number): Promise<string> {
  checkContentLength(request, limit);
  const bytes = request.headers.has("content-length")
    ? new Uint8Array(await request.arrayBuffer())
    : await readStreamed(request, limit);
  try {
    return UTF8.decode(bytes);
  } catch (error) {
    throw new HttpError("INVALID_INPUT", "The request body is not valid UTF-8.", { cause: error });
  }
}

// `fatal`: invalid bytes throw instead of becoming U+FFFD (docs/input-rules.md). A decode
// without `stream` keeps no state between calls, so one decoder serves every request.
const UTF8 = new TextDecoder("utf-8", { fatal: true });

async function readStreamed(request: Request, limit: number): Promise<Uint8Array> {
  if (request.body === null) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      throw tooLarge(limit, "request body");
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

/**
 * The same request with its body read, bounded by `limit` and checked as UTF-8, for handlers
 * that parse the body themselves (the MCP transport would otherwise decode bad bytes to U+FFFD):
 * invalid UTF-8 is INVALID_INPUT there too, as on every JSON route (docs/input-rules.md).
 */
export async function withUtf8Body(request: Request, limit: number): Promise<Request> {
  const text = await readBodyText(request, limit);
  const headers = new Headers(request.headers);
  // The text is the same bytes unless a BOM was dropped; let the new body set its own length.
  headers.delete("content-length");
  return new Request(request.url, {
    method: request.method,
    headers,
    body: text,
    signal: request.signal,
  });
}

/** Reads and parses a JSON body; malformed JSON is a 400 that quotes the parser's reason. */
export async function readJsonBody(request: Request, limit: number): Promise<unknown> {
  const text = await readBodyText(request, limit);
  if (text.trim() === "") {
    throw new HttpError("INVALID_INPUT", "The request body is empty; send a JSON object.");
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new HttpError(
      "INVALID_INPUT",
      `The request body is not valid JSON: ${(error as Error).message}.`,
      {
        cause: error,
      },
    );
  }
}

/**
 * Yields the non-blank lines of an NDJSON body as they stream in. The whole body is bounded by
 * `totalLimit` and each line by `lineLimit`; only one line is buffered at a time.
 */
export async function* readNdjsonLines(
  request: Request,
  totalLimit: number,
  lineLimit: number,
): AsyncGenerator<string> {
  checkContentLength(request, totalLimit, "import body");
  if (request.body === null) return;
  const reader = request.body.getReader();
  const decoder = new TextDecoder("utf-8", { fatal: true });
  let size = 0;
  let pending = "";
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > totalLimit) throw tooLarge(totalLimit, "import body");
      let text: string;
      try {
        text = decoder.decode(value, { stream: true });
      } catch (error) {
        throw new HttpError("INVALID_INPUT", "The import body is not valid UTF-8.", {
          cause: error,
        });
      }
      const parts = (pending + text).split("\n");
      pending = parts.pop() ?? "";
      for (const part of parts) {
        if (part.length > lineLimit) throw tooLarge(lineLimit, "NDJSON line");
        const line = part.trim();
        if (line !== "") yield line;
      }
      if (pending.length > lineLimit) throw tooLarge(lineLimit, "NDJSON line");
    }
    pending += decoder.decode();
    const last = pending.trim();
    if (last !== "") yield last;
  } finally {
    await reader.cancel().catch(() => {});
  }
}
