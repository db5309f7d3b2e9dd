import { isUtf8 } from "node:buffer";
import { Transform, type TransformCallback } from "node:stream";

const NEWLINE = 0x0a;

/**
 * Passes newline-delimited messages through unchanged when they are valid UTF-8, and refuses the
 * others, as the HTTP routes do: the MCP SDK's stdio transport decodes bytes leniently, so a
 * line with invalid bytes would otherwise reach a tool with U+FFFD in place of the bad bytes.
 * A refused line never reaches the transport; `onInvalid` answers it (docs/input-rules.md).
 */
export class Utf8Lines extends Transform {
  #pending: Buffer[] = [];
  readonly #onInvalid: (line: Buffer) => void;

  constructor(onInvalid: (line: Buffer) => void) {
    super();
    this.#onInvalid = onInvalid;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    let start = 0;
    for (let index = chunk.indexOf(NEWLINE); index !== -1; index = chunk.indexOf(NEWLINE, start)) {
      this.#pending.push(chunk.subarray(start, index + 1));
      this.#line(Buffer.concat(this.#pending));
      this.#pending = [];
      start = index + 1;
    }
    if (start < chunk.length) this.#pending.push(chunk.subarray(start));
    done();
  }

  override _flush(done: TransformCallback): void {
    if (this.#pending.length > 0) this.#line(Buffer.concat(this.#pending));
    this.#pending = [];
    done();
  }

  #line(line: Buffer): void {
    if (isUtf8(line)) this.push(line);
    else this.#onInvalid(line);
  }
}

/**
 * The JSON-RPC answer to a message that is not valid UTF-8: a parse error (-32700) with id null,
 * since the id cannot be read from bytes that are not text.
 */
export function invalidUtf8Response(): string {
  return `${JSON.stringify({
    jsonrpc: "2.0",
    id: null,
    error: {
      code: -32700,
      message:
        "INVALID_INPUT: the message is not valid UTF-8; send UTF-8 encoded JSON (docs/input-rules.md).",
    },
  })}\n`;
}
