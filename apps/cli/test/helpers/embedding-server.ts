import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createTestEmbedder } from "@memory/testkit";

/**
 * A real OpenAI-compatible `/v1/embeddings` endpoint on 127.0.0.1 that answers with the
 * testkit's deterministic vectors (float arrays), so CLI processes can embed through
 * `embedding_provider = "custom:<baseURL>"` without a model or the internet.
 */
export class EmbeddingServer {
  /** Texts embedded so far. */
  embedded = 0;
  readonly #server: Server;

  private constructor(dimensions: number) {
    const embedder = createTestEmbedder({ dimensions });
    this.#server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on("data", (chunk: Buffer) => chunks.push(chunk));
      request.on("end", async () => {
        const body = JSON.parse(Buffer.concat(chunks).toString() || "{}") as {
          input?: string | string[];
        };
        const input = typeof body.input === "string" ? [body.input] : (body.input ?? []);
        this.embedded += input.length;
        const vectors = await embedder.embed(input);
        response.writeHead(200, { "content-type": "application/json" });
        response.end(
          JSON.stringify({
            object: "list",
            model: "hash-v1",
            data: vectors.map((embedding, index) => ({ object: "embedding", index, embedding })),
            usage: { prompt_tokens: 0, total_tokens: 0 },
          }),
        );
      });
    });
  }

  static async start(dimensions = 8): Promise<EmbeddingServer> {
    const server = new EmbeddingServer(dimensions);
    await new Promise<void>((resolve) => server.#server.listen(0, "127.0.0.1", resolve));
    return server;
  }

  /** The `[memory]` lines that point a configuration at this server. */
  toml(dimensions = 8): string {
    const { port } = this.#server.address() as AddressInfo;
    return `embedding_provider = "custom:http://127.0.0.1:${port}/v1"\nembedding_model = "hash-v1"\nembedding_dims = ${dimensions}\ndefer_embedding = false`;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.#server.close(() => resolve()));
  }
}
