import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** One scripted answer of the fake chat server. */
export type ChatReply =
  /** A 200 chat completion whose message content is this text. */
  | { content: string }
  /** An HTTP error status with a JSON body. */
  | { status: number }
  /** Answers `content` only when `release` resolves (a slow model; the test decides when). */
  | { content: string; release: Promise<void> };

export interface ChatRequest {
  path: string;
  body: {
    model?: string;
    messages?: { role: string; content: string }[];
    response_format?: unknown;
  };
}

/**
 * A real OpenAI-compatible chat server on 127.0.0.1 and an ephemeral port: POST
 * /v1/chat/completions answers the queued replies in order (and 500 when the queue is empty).
 * The code under test talks to it through the real OpenAIChatModel (the openai SDK over HTTP).
 */
export class ChatServer {
  readonly requests: ChatRequest[] = [];
  readonly #queue: ChatReply[] = [];
  readonly #server: Server;
  readonly #open = new Set<ServerResponse>();

  private constructor() {
    this.#server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on("data", (chunk: Buffer) => chunks.push(chunk));
      request.on("end", () => {
        const text = Buffer.concat(chunks).toString();
        this.requests.push({ path: request.url ?? "", body: text ? JSON.parse(text) : {} });
        void this.#answer(response);
      });
    });
  }

  static async start(): Promise<ChatServer> {
    const server = new ChatServer();
    await new Promise<void>((resolve) => server.#server.listen(0, "127.0.0.1", resolve));
    return server;
  }

  /** The base URL an OpenAI-compatible client needs (`.../v1`). */
  get baseURL(): string {
    const { port } = this.#server.address() as AddressInfo;
    return `http://127.0.0.1:${port}/v1`;
  }

  /** Queues answers (served in order) and forgets earlier requests. */
  reply(...replies: ChatReply[]): void {
    this.#queue.push(...replies);
  }

  /** The user messages of each request, in order. */
  userMessages(): string[][] {
    return this.requests.map((request) =>
      (request.body.messages ?? []).filter((m) => m.role === "user").map((m) => m.content),
    );
  }

  reset(): void {
    this.#queue.length = 0;
    this.requests.length = 0;
  }

  get pending(): number {
    return this.#queue.length;
  }

  async close(): Promise<void> {
    for (const response of this.#open) response.destroy();
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  async #answer(response: ServerResponse): Promise<void> {
    const reply = this.#queue.shift() ?? { status: 500 };
    this.#open.add(response);
    if ("release" in reply) await reply.release;
    this.#open.delete(response);
    if (response.destroyed) return;
    if ("status" in reply) {
      response.writeHead(reply.status, { "content-type": "application/json" });
      response.end(JSON.stringify({ error: { message: "scripted failure" } }));
      return;
    }
    response.writeHead(200, { "content-type": "application/json" });
    response.end(
      JSON.stringify({
        id: "chatcmpl-test",
        object: "chat.completion",
        created: 0,
        model: "scripted",
        choices: [
          {
            index: 0,
            finish_reason: "stop",
            message: { role: "assistant", content: reply.content },
          },
        ],
      }),
    );
  }
}

/** A gate a test opens: `release` resolves when `open()` is called. */
export function gate() {
  let open!: () => void;
  const release = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { release, open };
}
