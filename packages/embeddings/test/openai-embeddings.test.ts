import { ConfigError, EmbeddingError, MemoryError } from "@memory/api";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createOpenAIEmbeddings } from "../src/openai/index.js";
import {
  fakeVector,
  LoopbackServer,
  type RecordedRequest,
  toBase64Floats,
} from "./support/loopback-server.js";
import { recordingSleep } from "./support/recording-sleep.js";

let server: LoopbackServer;
beforeAll(async () => {
  server = await LoopbackServer.start();
});
afterAll(async () => {
  await server.close();
});
afterEach(() => {
  delete process.env.OPENAI_API_KEY;
  delete process.env.OPENROUTER_API_KEY;
});

const DIMS = 8;

/** Speaks OpenAI's POST /v1/embeddings, honouring encoding_format like the real API. */
function embeddingsReply(request: RecordedRequest) {
  const body = request.body as { input: string[]; encoding_format?: string; model: string };
  const base64 = body.encoding_format === "base64";
  return {
    json: {
      object: "list",
      model: body.model,
      data: body.input.map((text, index) => ({
        object: "embedding",
        index,
        embedding: base64 ? toBase64Floats(fakeVector(text, DIMS)) : fakeVector(text, DIMS),
      })),
      usage: { prompt_tokens: 1, total_tokens: 1 },
    },
  };
}

function provider(extra: Parameters<typeof createOpenAIEmbeddings>[0] = {}) {
  return createOpenAIEmbeddings({
    apiKey: "sk-test-secret",
    baseURL: `${server.url}/v1`,
    model: "test-embed",
    dimensions: DIMS,
    retryBaseDelayMs: 1,
    ...extra,
  });
}

describe("openai embedding provider", () => {
  it("embeds with float encoding and sends model, input and bearer key", async () => {
    server.handle(embeddingsReply);
    const vectors = await provider({ encodingFormat: "float" }).embed(["alpha", "beta"]);
    expect(vectors).toEqual([fakeVector("alpha", DIMS), fakeVector("beta", DIMS)]);
    expect(server.requests).toHaveLength(1);
    const [request] = server.requests;
    expect(request?.path).toBe("/v1/embeddings");
    expect(request?.headers.authorization).toBe("Bearer sk-test-secret");
    expect(request?.body).toMatchObject({ model: "test-embed", encoding_format: "float" });
  });

  it("decodes base64 responses (the default encoding) to the same floats", async () => {
    server.handle(embeddingsReply);
    const [vector] = await provider().embed(["alpha"]);
    expect(
      (server.requests[0]?.body as { encoding_format: string } | undefined)?.encoding_format,
    ).toBe("base64");
    const expected = Array.from(new Float32Array(fakeVector("alpha", DIMS)));
    expect(vector).toEqual(expected);
  });

  it("orders vectors by the response index, not by array order", async () => {
    server.handle((request) => {
      const reply = embeddingsReply({
        ...request,
        body: { ...(request.body as object), encoding_format: "float" },
      });
      (reply.json.data as unknown[]).reverse();
      return reply;
    });
    const vectors = await provider({ encodingFormat: "float" }).embed(["a", "b", "c"]);
    expect(vectors).toEqual(["a", "b", "c"].map((text) => fakeVector(text, DIMS)));
  });

  it("splits input into batches of maxBatchSize and keeps order across batches", async () => {
    server.handle(embeddingsReply);
    const texts = ["t1", "t2", "t3", "t4", "t5"];
    const vectors = await provider({ maxBatchSize: 2, concurrency: 2 }).embed(texts);
    const sizes = server.requests.map(
      (request) => (request.body as { input: string[] }).input.length,
    );
    expect(sizes.sort()).toEqual([1, 2, 2]);
    expect(vectors).toEqual(
      texts.map((text) => Array.from(new Float32Array(fakeVector(text, DIMS)))),
    );
  });

  it("sends exactly one request when the input fits one batch", async () => {
    server.handle(embeddingsReply);
    await provider({ maxBatchSize: 3 }).embed(["a", "b", "c"]);
    expect(server.requests).toHaveLength(1);
  });

  it("returns no vectors and makes no request for an empty list", async () => {
    server.handle(embeddingsReply);
    expect(await provider().embed([])).toEqual([]);
    expect(server.requests).toHaveLength(0);
  });

  it("fails fast on 401 with an error naming the key option and env var, without the key", async () => {
    server.handle(() => ({ status: 401, json: { error: { message: "Incorrect API key" } } }));
    const error = await provider()
      .embed(["x"])
      .catch((caught: unknown) => caught);
    expect(MemoryError.hasCode(error, "EMBEDDING_FAILED")).toBe(true);
    expect((error as Error).message).toContain("OPENAI_API_KEY");
    expect((error as Error).message).toContain("apiKey");
    expect((error as Error).message).not.toContain("sk-test-secret");
    expect(server.requests).toHaveLength(1);
  });

  it("waits for Retry-After on 429 and then succeeds", async () => {
    server.handle((request, index) =>
      index === 0
        ? {
            status: 429,
            headers: { "retry-after": "1" },
            json: { error: { message: "slow down" } },
          }
        : embeddingsReply(request),
    );
    const waits = recordingSleep();
    const vectors = await provider({ sleep: waits.sleep }).embed(["x"]);
    expect(vectors).toHaveLength(1);
    expect(server.requests).toHaveLength(2);
    // retryBaseDelayMs is 1 ms, so only the header can explain a wait of one second.
    expect(waits.delays).toEqual([1000]);
  });

  it("retries a 500 and then succeeds", async () => {
    server.handle((request, index) =>
      index === 0 ? { status: 500, json: { error: "boom" } } : embeddingsReply(request),
    );
    const waits = recordingSleep();
    expect(await provider({ sleep: waits.sleep }).embed(["x"])).toHaveLength(1);
    expect(server.requests).toHaveLength(2);
    // Backoff without Retry-After: jitter between half and all of retryBaseDelayMs (1 ms).
    expect(waits.delays).toEqual([1]);
  });

  it("gives up after maxRetries on a persistent 503", async () => {
    server.handle(() => ({ status: 503, json: { error: "down" } }));
    const waits = recordingSleep();
    const error = await provider({ maxRetries: 2, sleep: waits.sleep })
      .embed(["x"])
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(EmbeddingError);
    expect((error as Error).message).toContain("HTTP 503");
    expect(server.requests).toHaveLength(3);
    expect(waits.delays).toHaveLength(2);
  });

  it("times out a request that never answers with a MemoryTimeoutError naming timeoutMs", async () => {
    // The server never answers, so the outcome cannot depend on how fast this machine is.
    server.handle(() => "hang");
    const error = await provider({ timeoutMs: 200 })
      .embed(["x"])
      .catch((caught: unknown) => caught);
    expect(MemoryError.hasCode(error, "TIMEOUT")).toBe(true);
    expect((error as Error).message).toContain("timeoutMs");
    expect((error as Error).message).toContain("within 200 ms");
  });

  it("stops when the caller aborts, with the caller's reason", async () => {
    let markReceived!: () => void;
    const received = new Promise<void>((resolve) => {
      markReceived = resolve;
    });
    server.handle(() => {
      markReceived();
      return "hang";
    });
    const controller = new AbortController();
    const pending = provider().embed(["x"], { signal: controller.signal });
    // Abort once the request is in flight (an event, not a guess at how long that takes).
    await received;
    controller.abort(new Error("user cancelled"));
    await expect(pending).rejects.toThrow("user cancelled");
  });

  it("cancels a pending Retry-After wait when the caller aborts", async () => {
    server.handle(() => ({ status: 429, headers: { "retry-after": "30" }, json: {} }));
    const controller = new AbortController();
    // The library's real timer: if aborting did not cancel the 30 s wait, the call would go on
    // to a second request (and outlive the test), so no clock needs to be read here.
    const waits = recordingSleep({ real: true });
    const pending = provider({ retryMaxDelayMs: 60_000, sleep: waits.sleep }).embed(["x"], {
      signal: controller.signal,
    });
    await waits.started;
    controller.abort(new Error("shutting down"));
    await expect(pending).rejects.toThrow("shutting down");
    expect(waits.delays).toEqual([30_000]);
    expect(server.requests).toHaveLength(1);
  });

  it("retries a refused connection, then reports the unreachable URL", async () => {
    const closed = await LoopbackServer.start();
    const url = closed.url;
    await closed.close();
    const waits = recordingSleep();
    const error = await provider({ baseURL: `${url}/v1`, maxRetries: 1, sleep: waits.sleep })
      .embed(["x"])
      .catch((caught: unknown) => caught);
    expect(MemoryError.hasCode(error, "EMBEDDING_FAILED")).toBe(true);
    expect(waits.delays).toHaveLength(1);
    expect((error as Error).message).toContain(`Could not reach OpenAI at ${url}/v1/embeddings`);
  });

  it("reports malformed JSON as an EmbeddingError", async () => {
    server.handle(() => ({ raw: "{not json" }));
    const error = await provider()
      .embed(["x"])
      .catch((caught: unknown) => caught);
    expect(MemoryError.hasCode(error, "EMBEDDING_FAILED")).toBe(true);
    expect((error as Error).message).toMatch(/malformed/);
  });

  it("reports a response without data as malformed", async () => {
    server.handle(() => ({ json: { object: "list" } }));
    await expect(provider().embed(["x"])).rejects.toThrow(/malformed/);
  });

  it("rejects vectors of the wrong size and says which option to change", async () => {
    server.handle((request) => {
      const body = request.body as { input: string[] };
      return {
        json: {
          data: body.input.map((_, index) => ({ index, embedding: toBase64Floats([1, 2, 3]) })),
        },
      };
    });
    const error = await provider()
      .embed(["x"])
      .catch((caught: unknown) => caught);
    expect(MemoryError.hasCode(error, "EMBEDDING_FAILED")).toBe(true);
    expect((error as Error).message).toContain("returned 3-dimensional vectors");
    expect((error as Error).message).toContain("dimensions");
  });

  it("rejects a response with fewer vectors than inputs", async () => {
    server.handle(() => ({ json: { data: [{ index: 0, embedding: fakeVector("a", DIMS) }] } }));
    await expect(provider({ encodingFormat: "float" }).embed(["a", "b"])).rejects.toThrow(
      /expected 2 embeddings, got 1/,
    );
  });

  it("reads the API key from OPENAI_API_KEY at request time, not at construction", async () => {
    server.handle(embeddingsReply);
    const lazy = provider({ apiKey: undefined });
    process.env.OPENAI_API_KEY = "sk-late";
    await lazy.embed(["x"]);
    expect(server.requests[0]?.headers.authorization).toBe("Bearer sk-late");
  });

  it("throws a ConfigError naming OPENAI_API_KEY when no key is configured", async () => {
    const error = await provider({ apiKey: undefined })
      .embed(["x"])
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toContain("OPENAI_API_KEY");
  });

  it("uses the preset name in the fingerprint and OPENROUTER_API_KEY for OpenRouter", async () => {
    server.handle(embeddingsReply);
    process.env.OPENROUTER_API_KEY = "or-key";
    const openrouter = createOpenAIEmbeddings({
      preset: "openrouter",
      baseURL: `${server.url}/v1`,
      model: "openai/text-embedding-3-small",
    });
    expect(openrouter.fingerprint).toBe("openrouter:openai/text-embedding-3-small:1536");
    expect(openrouter.dimensions).toBe(1536);
    server.handle(() => ({ status: 403, json: {} }));
    await expect(openrouter.embed(["x"])).rejects.toThrow(/OPENROUTER_API_KEY/);
    expect(server.requests[0]?.headers.authorization).toBe("Bearer or-key");
  });

  it("talks to a keyless OpenAI-compatible server with the custom preset", async () => {
    server.handle(embeddingsReply);
    const custom = createOpenAIEmbeddings({
      preset: "custom",
      baseURL: `${server.url}/v1`,
      model: "nomic-embed-text",
      dimensions: DIMS,
    });
    expect(custom.fingerprint).toBe(`custom:nomic-embed-text:${DIMS}`);
    expect(await custom.embedOne("x")).toHaveLength(DIMS);
  });

  it("defaults to text-embedding-3-small with 1536 dimensions", () => {
    const defaults = createOpenAIEmbeddings();
    expect(defaults.fingerprint).toBe("openai:text-embedding-3-small:1536");
  });

  it("sends the dimensions parameter only when shortening a model that supports it", async () => {
    server.handle((request) => {
      const body = request.body as { input: string[] };
      return {
        json: {
          data: body.input.map((_, index) => ({
            index,
            embedding: toBase64Floats(new Array(256).fill(0.1)),
          })),
        },
      };
    });
    await provider({ model: "text-embedding-3-small", dimensions: 256 }).embed(["x"]);
    expect(server.requests[0]?.body).toMatchObject({ dimensions: 256 });
    await provider({ model: "other-model", dimensions: 256 }).embed(["x"]);
    expect(server.requests[1]?.body).not.toHaveProperty("dimensions");
  });

  it("requires dimensions for a model whose size is unknown", () => {
    expect(() => createOpenAIEmbeddings({ model: "mystery" })).toThrow(/embedding_dims/);
  });

  it("sends custom headers", async () => {
    server.handle(embeddingsReply);
    await provider({ headers: { "x-team": "memory" } }).embed(["x"]);
    expect(server.requests[0]?.headers["x-team"]).toBe("memory");
  });
});
