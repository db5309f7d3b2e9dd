import { MemoryError } from "@memory/api";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createGeminiEmbeddings } from "../src/gemini/index.js";
import { fakeVector, LoopbackServer, type RecordedRequest } from "./support/loopback-server.js";
import { recordingSleep } from "./support/recording-sleep.js";

let server: LoopbackServer;
beforeAll(async () => {
  server = await LoopbackServer.start();
});
afterAll(async () => {
  await server.close();
});
afterEach(() => {
  delete process.env.GEMINI_API_KEY;
  delete process.env.GOOGLE_API_KEY;
});

interface BatchBody {
  requests: {
    model: string;
    content: { parts: { text: string }[] };
    taskType?: string;
    outputDimensionality?: number;
  }[];
}

/** Speaks Gemini's POST /v1beta/models/{model}:batchEmbedContents. */
function batchReply(dimensions: number) {
  return (request: RecordedRequest) => {
    const body = request.body as BatchBody;
    return {
      json: {
        embeddings: body.requests.map((item) => ({
          values: fakeVector(item.content.parts[0]?.text ?? "", dimensions),
        })),
      },
    };
  };
}

function provider(extra: Parameters<typeof createGeminiEmbeddings>[0] = {}) {
  return createGeminiEmbeddings({
    apiKey: "gm-secret",
    baseURL: server.url,
    model: "text-embedding-004",
    retryBaseDelayMs: 1,
    ...extra,
  });
}

describe("gemini embedding provider", () => {
  it("calls batchEmbedContents with RETRIEVAL_DOCUMENT and the key header", async () => {
    server.handle(batchReply(768));
    const vectors = await provider().embed(["one", "two"]);
    expect(vectors).toEqual([fakeVector("one", 768), fakeVector("two", 768)]);
    const [request] = server.requests;
    expect(request?.path).toBe("/v1beta/models/text-embedding-004:batchEmbedContents");
    expect(request?.headers["x-goog-api-key"]).toBe("gm-secret");
    const body = request?.body as BatchBody;
    expect(body.requests.map((item) => item.taskType)).toEqual([
      "RETRIEVAL_DOCUMENT",
      "RETRIEVAL_DOCUMENT",
    ]);
  });

  it("uses RETRIEVAL_QUERY for queries", async () => {
    server.handle(batchReply(768));
    await provider().embedOne("where is it?", { purpose: "query" });
    expect((server.requests[0]?.body as BatchBody | undefined)?.requests[0]?.taskType).toBe(
      "RETRIEVAL_QUERY",
    );
  });

  it("sends outputDimensionality and normalizes truncated vectors to unit length", async () => {
    server.handle(batchReply(256));
    const truncated = provider({ model: "gemini-embedding-001", dimensions: 256 });
    expect(truncated.fingerprint).toBe("gemini:gemini-embedding-001:256");
    const vector = await truncated.embedOne("x");
    expect(
      (server.requests[0]?.body as BatchBody | undefined)?.requests[0]?.outputDimensionality,
    ).toBe(256);
    const norm = Math.sqrt(vector.reduce((sum, value) => sum + value * value, 0));
    expect(norm).toBeCloseTo(1, 6);
  });

  it("splits more than 100 texts into several batch calls", async () => {
    server.handle(batchReply(768));
    const texts = Array.from({ length: 205 }, (_, index) => `text ${index}`);
    const vectors = await provider({ concurrency: 1 }).embed(texts);
    expect(server.requests.map((request) => (request.body as BatchBody).requests.length)).toEqual([
      100, 100, 5,
    ]);
    expect(vectors[204]).toEqual(fakeVector("text 204", 768));
  });

  it("maps 403 to an EmbeddingError naming GEMINI_API_KEY, with no key in the message", async () => {
    server.handle(() => ({
      status: 403,
      json: { error: { code: 403, message: "API key not valid" } },
    }));
    const error = await provider()
      .embed(["x"])
      .catch((caught: unknown) => caught);
    expect(MemoryError.hasCode(error, "EMBEDDING_FAILED")).toBe(true);
    expect((error as Error).message).toContain("GEMINI_API_KEY");
    expect((error as Error).message).not.toContain("gm-secret");
    expect(server.requests).toHaveLength(1);
  });

  it("retries 429 honouring Retry-After, then 500, then succeeds", async () => {
    server.handle((request, index) => {
      if (index === 0) return { status: 429, headers: { "retry-after": "1" }, json: {} };
      if (index === 1) return { status: 500, json: {} };
      return batchReply(768)(request);
    });
    const waits = recordingSleep();
    expect(await provider({ sleep: waits.sleep }).embed(["x"])).toHaveLength(1);
    expect(server.requests).toHaveLength(3);
    // The header's second, then backoff from retryBaseDelayMs (1 ms, doubled, with jitter).
    expect(waits.delays).toHaveLength(2);
    expect(waits.delays[0]).toBe(1000);
    expect(waits.delays[1]).toBeLessThanOrEqual(2);
  });

  it("times out with MemoryTimeoutError", async () => {
    server.handle(() => "hang");
    const error = await provider({ timeoutMs: 150 })
      .embed(["x"])
      .catch((caught: unknown) => caught);
    expect(MemoryError.hasCode(error, "TIMEOUT")).toBe(true);
  });

  it("reports malformed JSON and wrong dimensions as EmbeddingErrors", async () => {
    server.handle(() => ({ raw: "<html>proxy error</html>" }));
    await expect(provider().embed(["x"])).rejects.toSatisfy((error) =>
      MemoryError.hasCode(error, "EMBEDDING_FAILED"),
    );
    server.handle(batchReply(12));
    await expect(provider().embed(["x"])).rejects.toThrow(/returned 12-dimensional vectors/);
  });

  it("falls back to GOOGLE_API_KEY read at request time", async () => {
    server.handle(batchReply(768));
    const lazy = provider({ apiKey: undefined });
    process.env.GOOGLE_API_KEY = "google-key";
    await lazy.embed(["x"]);
    expect(server.requests[0]?.headers["x-goog-api-key"]).toBe("google-key");
  });
});
