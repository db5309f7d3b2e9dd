import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage["headers"];
  body: unknown;
}

/** What a handler returns: a JSON body, a raw string body, or `hang` to never answer. */
export type Reply =
  | { status?: number; json: unknown; headers?: Record<string, string> }
  | { status?: number; raw: string; headers?: Record<string, string> }
  | "hang";

export type Handler = (request: RecordedRequest, index: number) => Reply;

/**
 * A real HTTP server on 127.0.0.1 and an ephemeral port. Tests queue handlers that speak a
 * provider's wire format; the code under test (and the vendor SDK inside it) does real I/O.
 */
export class LoopbackServer {
  readonly requests: RecordedRequest[] = [];
  private handler: Handler = () => ({ status: 500, json: { error: "no handler" } });
  private readonly server: Server;
  private readonly hanging = new Set<ServerResponse>();

  private constructor() {
    this.server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on("data", (chunk: Buffer) => chunks.push(chunk));
      request.on("end", () => this.respond(request, Buffer.concat(chunks).toString(), response));
    });
  }

  static async start(): Promise<LoopbackServer> {
    const loopback = new LoopbackServer();
    await new Promise<void>((resolve) => loopback.server.listen(0, "127.0.0.1", resolve));
    return loopback;
  }

  get url(): string {
    const { port } = this.server.address() as AddressInfo;
    return `http://127.0.0.1:${port}`;
  }

  handle(handler: Handler): void {
    this.handler = handler;
    this.requests.length = 0;
  }

  async close(): Promise<void> {
    for (const response of this.hanging) response.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private respond(request: IncomingMessage, text: string, response: ServerResponse): void {
    let body: unknown = text;
    try {
      body = text === "" ? undefined : JSON.parse(text);
    } catch {
      // Keep the raw text; some tests send non-JSON on purpose.
    }
    const recorded: RecordedRequest = {
      method: request.method ?? "",
      path: request.url ?? "",
      headers: request.headers,
      body,
    };
    this.requests.push(recorded);
    const reply = this.handler(recorded, this.requests.length - 1);
    if (reply === "hang") {
      this.hanging.add(response);
      return;
    }
    const payload = "json" in reply ? JSON.stringify(reply.json) : reply.raw;
    response.writeHead(reply.status ?? 200, {
      "content-type": "application/json",
      ...reply.headers,
    });
    response.end(payload);
  }
}

/** A deterministic fake vector for a text, so tests can check order and batching. */
export function fakeVector(text: string, dimensions: number): number[] {
  const seed = [...text].reduce((sum, char) => sum + char.charCodeAt(0), 0);
  return Array.from({ length: dimensions }, (_, index) => ((seed + index) % 97) / 97);
}

/** Float32 little-endian base64, as OpenAI sends for `encoding_format: "base64"`. */
export function toBase64Floats(vector: number[]): string {
  return Buffer.from(new Float32Array(vector).buffer).toString("base64");
}
