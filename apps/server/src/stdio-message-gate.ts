import { isUtf8 } from "node:buffer";
import { Transform, type TransformCallback } from "node:stream";
import { JSONRPCMessageSchema } from "@modelcontextprotocol/sdk/types.js";

const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;
/** Bytes kept from each end of an over-size line, to find its JSON-RPC id. */
const EDGE_BYTES = 512;

type JsonRpcId = string | number | null;

/** A JSON-RPC error response (one line) for a message refused before the SDK sees it. */
export function refusal(id: JsonRpcId, code: number, message: string): string {
  return `${JSON.stringify({ jsonrpc: "2.0", id, error: { code, message } })}\n`;
}

/** JSON-RPC's "Parse error": the message is not valid UTF-8, JSON, or a JSON-RPC message. */
export const PARSE_ERROR = -32700;
/** JSON-RPC's "Invalid Request": here, a message over the size limit. */
export const INVALID_REQUEST = -32600;

const ID_AT_END = /"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.){0,200}")\s*\}\s*$/;
const ID_AT_START =
  /^\s*\{\s*(?:"(?:jsonrpc|method)"\s*:\s*"[^"]*"\s*,\s*)*"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.){0,200}")/;

/**
 * The id of a message too large to parse, from its first and last bytes: the SDK's client
 * writes `"id"` last, other clients first. Null when neither end shows a top-level id (the
 * client then learns of the refusal from the error without an id, as JSON-RPC allows).
 */
export function idOfOverSizeMessage(head: Buffer, tail: Buffer): JsonRpcId {
  const found =
    ID_AT_START.exec(head.toString("utf8"))?.[1] ?? ID_AT_END.exec(tail.toString("utf8"))?.[1];
  if (found === undefined) return null;
  try {
    return JSON.parse(found) as string | number;
  } catch {
    return null;
  }
}

export interface StdioMessageGateOptions {
  /** Largest message (one line, without its line break), in bytes: `max_body_bytes`. */
  maxMessageBytes: number;
  /** Writes a refusal (a JSON-RPC error line) to the client. */
  refuse(response: string, reason: "too-large" | "invalid-utf8" | "parse"): void;
}

/**
 * Checks each newline-delimited message before the MCP SDK's stdio transport reads it, and
 * answers the ones it refuses with a JSON-RPC error, as the HTTP channel does:
 * - over `maxMessageBytes`: `-32600` naming the limit, without buffering the message (the SDK
 *   would otherwise close its input at 10 MiB and leave the server running but deaf);
 * - not valid UTF-8: `-32700` (the SDK decodes leniently, so U+FFFD would reach a tool);
 * - not JSON, or not a JSON-RPC message: `-32700` (the SDK drops those without an answer).
 * Accepted lines pass through unchanged; blank lines are dropped.
 */
export class StdioMessageGate extends Transform {
  readonly #options: StdioMessageGateOptions;
  #pending: Buffer[] = [];
  #pendingBytes = 0;
  /** Set while the rest of an over-size line is skipped. */
  #overSize: { bytes: number; head: Buffer; tail: Buffer } | undefined;

  constructor(options: StdioMessageGateOptions) {
    super();
    this.#options = options;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    let start = 0;
    while (start < chunk.length) {
      const newline = chunk.indexOf(NEWLINE, start);
      const end = newline === -1 ? chunk.length : newline;
      this.#take(chunk.subarray(start, end));
      if (newline === -1) break;
      this.#endOfLine();
      start = newline + 1;
    }
    done();
  }

  override _flush(done: TransformCallback): void {
    if (this.#pendingBytes > 0 || this.#overSize) this.#endOfLine();
    done();
  }

  #take(part: Buffer): void {
    if (part.length === 0) return;
    if (this.#overSize) {
      this.#overSize.bytes += part.length;
      this.#overSize.tail = lastBytes(Buffer.concat([this.#overSize.tail, part]));
      return;
    }
    this.#pending.push(part);
    this.#pendingBytes += part.length;
    // A trailing CR is not part of the message; allow one byte for it before refusing.
    if (this.#pendingBytes > this.#options.maxMessageBytes + 1) {
      const line = Buffer.concat(this.#pending);
      this.#overSize = {
        bytes: line.length,
        head: line.subarray(0, EDGE_BYTES),
        tail: lastBytes(line),
      };
      this.#pending = [];
      this.#pendingBytes = 0;
    }
  }

  #endOfLine(): void {
    const overSize = this.#overSize;
    this.#overSize = undefined;
    if (overSize) {
      this.#refuseTooLarge(overSize.bytes, idOfOverSizeMessage(overSize.head, overSize.tail));
      return;
    }
    let line = Buffer.concat(this.#pending);
    this.#pending = [];
    this.#pendingBytes = 0;
    if (line.at(-1) === CARRIAGE_RETURN) line = line.subarray(0, -1);
    if (line.length > this.#options.maxMessageBytes) {
      this.#refuseTooLarge(
        line.length,
        idOfOverSizeMessage(line.subarray(0, EDGE_BYTES), lastBytes(line)),
      );
      return;
    }
    this.#check(line);
  }

  #check(line: Buffer): void {
    if (!isUtf8(line)) {
      this.#options.refuse(
        refusal(
          null,
          PARSE_ERROR,
          "INVALID_INPUT: the message is not valid UTF-8; send UTF-8 encoded JSON (docs/input-rules.md).",
        ),
        "invalid-utf8",
      );
      return;
    }
    const text = line.toString("utf8");
    if (text.trim() === "") return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      this.#options.refuse(
        refusal(
          null,
          PARSE_ERROR,
          `Parse error: Invalid JSON (${(error as Error).message}); send one JSON-RPC message per line.`,
        ),
        "parse",
      );
      return;
    }
    if (!JSONRPCMessageSchema.safeParse(parsed).success) {
      const id = (parsed as { id?: unknown } | null)?.id;
      this.#options.refuse(
        refusal(
          typeof id === "string" || typeof id === "number" ? id : null,
          PARSE_ERROR,
          'Parse error: Invalid JSON-RPC message; send a JSON-RPC 2.0 request, notification or response ({"jsonrpc":"2.0", ...}).',
        ),
        "parse",
      );
      return;
    }
    this.push(Buffer.concat([line, Buffer.from("\n")]));
  }

  #refuseTooLarge(bytes: number, id: JsonRpcId): void {
    const limit = this.#options.maxMessageBytes;
    this.#options.refuse(
      refusal(
        id,
        INVALID_REQUEST,
        `PAYLOAD_TOO_LARGE: the message is ${bytes} bytes; the limit is ${limit} bytes, the same as HTTP's ([server] max_body_bytes or MEMORY_SERVER_MAX_BODY_BYTES). Store a long text as several entries (docs/input-rules.md).`,
      ),
      "too-large",
    );
  }
}

function lastBytes(buffer: Buffer): Buffer {
  return buffer.length <= EDGE_BYTES ? buffer : Buffer.from(buffer.subarray(-EDGE_BYTES));
}
