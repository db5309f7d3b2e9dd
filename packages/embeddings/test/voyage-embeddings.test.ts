import { MemoryError } from "@memory/api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createVoyageEmbeddings } from "../src/voyage/index.js";
import { fakeVector, LoopbackServer, type RecordedRequest } from "./support/loopback-server.js";
import { recordingSleep } from "./support/recording-sleep.js";

let server: LoopbackServer;
beforeAll(async () => {
  server = await LoopbackServer.start();
});
afterAll(async () => {
  await server.close();
});

const DIMS = 16;

interface VoyageBody {
  input: string[];
  model: string;
  input_type?: string;
  output_dimension?: number;
}

/** Speaks Voyage's POST /v1/embeddings. */
function embedReply(request: RecordedRequest, dimensions = DIMS) {
  const body = request.body as VoyageBody;
  return {
    json: {
      object: "list",
      data: body.input.map((text, index) => ({
        object: "embedding",
        embedding: fakeVector(text, dimensions),
        index,
      })),
      model: body.model,
      usage: { total_tokens: body.input.length },
    },
  };
}

function provider(extra: Parameters<typeof createVoyageEmbeddings>[0] = {}) {
  return createVoyageEmbeddings({
    apiKey: "pa-secret",
    baseURL: `${server.url}/v1`,
    dimensions: DIMS,
    retryBaseDelayMs: 1,
    ...extra,
  });
}

describe("voyage embedding provider", () => {
  it("embeds documents with input_type document and output_dimension", async () => {
    server.handle((request) => embedReply(request));
    const vectors = await provider().embed(["a", "b"]);
    expect(vectors).toEqual([fakeVector("a", DIMS), fakeVector("b", DIMS)]);
    const [request] = server.requests;
    expect(request?.path).toBe("/v1/embeddings");
    expect(request?.headers.authorization).toBe("Bearer pa-secret");
    expect(request?.body).toMatchObject({
      model: "voyage-3.5",
      input_type: "document",
      output_dimension: DIMS,
    });
  });

  it("embeds queries with input_type query", async () => {
    server.handle((request) => embedReply(request));
    await provider().embedOne("q", { purpose: "query" });
    expect((server.requests[0]?.body as VoyageBody | undefined)?.input_type).toBe("query");
  });

  it("splits batches at maxBatchSize", async () => {
    server.handle((request) => embedReply(request));
    const vectors = await provider({ maxBatchSize: 3, concurrency: 1 }).embed(["1", "2", "3", "4"]);
    expect(server.requests.map((request) => (request.body as VoyageBody).input)).toEqual([
      ["1", "2", "3"],
      ["4"],
    ]);
    expect(vectors).toHaveLength(4);
  });

  it("maps 401 to an EmbeddingError naming VOYAGE_API_KEY", async () => {
    server.handle(() => ({ status: 401, json: { detail: "Provided API key is invalid." } }));
    const error = await provider()
      .embed(["x"])
      .catch((caught: unknown) => caught);
    expect(MemoryError.hasCode(error, "EMBEDDING_FAILED")).toBe(true);
    expect((error as Error).message).toContain("VOYAGE_API_KEY");
    expect(server.requests).toHaveLength(1);
  });

  it("retries 429 with Retry-After and a 502, then succeeds", async () => {
    server.handle((request, index) => {
      if (index === 0)
        return { status: 429, headers: { "retry-after": "1" }, json: { detail: "rate" } };
      if (index === 1) return { status: 502, raw: "bad gateway" };
      return embedReply(request);
    });
    const waits = recordingSleep();
    expect(await provider({ sleep: waits.sleep }).embed(["x"])).toHaveLength(1);
    expect(server.requests).toHaveLength(3);
    // The header's second, then backoff from retryBaseDelayMs (1 ms, doubled, with jitter).
    expect(waits.delays).toHaveLength(2);
    expect(waits.delays[0]).toBe(1000);
    expect(waits.delays[1]).toBeLessThanOrEqual(2);
  });

  it("times out, and reports malformed JSON and wrong dimensions", async () => {
    server.handle(() => "hang");
    await expect(provider({ timeoutMs: 150 }).embed(["x"])).rejects.toSatisfy((error) =>
      MemoryError.hasCode(error, "TIMEOUT"),
    );
    server.handle(() => ({ raw: '{"data": [' }));
    await expect(provider().embed(["x"])).rejects.toSatisfy((error) =>
      MemoryError.hasCode(error, "EMBEDDING_FAILED"),
    );
    server.handle((request) => embedReply(request, 4));
    await expect(provider().embed(["x"])).rejects.toThrow(/returned 4-dimensional vectors/);
  });
});
