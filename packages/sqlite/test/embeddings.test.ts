import { type EmbeddingProvider, MemoryError } from "@memory/api";
import { createTestEmbedder } from "@memory/testkit";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { createSqliteMemory } from "../src/index.js";
import { tempDbPath } from "./helpers.js";

/** Wraps an embedder so each call waits until the test opens the gate. */
function gated(inner: EmbeddingProvider) {
  let release: () => void = () => {};
  let gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  const calls: string[][] = [];
  const provider: EmbeddingProvider = {
    name: inner.name,
    model: inner.model,
    dimensions: inner.dimensions,
    fingerprint: inner.fingerprint,
    async embed(texts, options) {
      calls.push([...texts]);
      await gate;
      return inner.embed(texts, options);
    },
    async embedOne(text, options) {
      return (await provider.embed([text], options))[0]!;
    },
  };
  return {
    provider,
    calls,
    open: () => release(),
    close: () => {
      gate = new Promise<void>((resolve) => {
        release = resolve;
      });
    },
  };
}

describe("fingerprint checks", () => {
  it("degrades to keyword recall with a reason in explain and healthCheck until reindex", async () => {
    const path = tempDbPath();
    const first = createSqliteMemory({
      path,
      embedder: createTestEmbedder({ dimensions: 32, model: "v1" }),
    });
    await first.store({ key: "car", content: "I drive a red car" });
    await first.close();

    const second = createSqliteMemory({
      path,
      embedder: createTestEmbedder({ dimensions: 32, model: "v2" }),
    });
    const degraded = await second.recall("automobile car", { mode: "hybrid" });
    expect(degraded[0]!.explain!.source).toBe("keyword");
    expect(degraded[0]!.explain!.degraded).toMatch(/test:v1:32.*test:v2:32.*reindex/);
    const health = await second.healthCheck();
    expect(health.vector).toMatchObject({
      status: "degraded",
      storedFingerprint: "test:v1:32",
      providerFingerprint: "test:v2:32",
    });
    expect(health.vector.reason).toMatch(/reindex/);
    // New writes do not add v2 vectors to the v1 space.
    await second.store({ key: "dog", content: "a puppy" });
    expect((await second.get("dog", { withEmbedding: true }))!.embedding).toBeUndefined();
    await expect(second.backfillEmbeddings()).rejects.toSatisfy((error) =>
      MemoryError.hasCode(error, "CONFIG"),
    );

    const progress: number[] = [];
    const report = await second.reindex({ onProgress: ({ done }) => progress.push(done) });
    expect(report).toEqual({ embedded: 2, failed: 0, remaining: 0 });
    expect(progress.at(-1)).toBe(2);
    expect((await second.healthCheck()).vector).toMatchObject({
      status: "ok",
      storedFingerprint: "test:v2:32",
    });
    const [hit] = await second.recall("automobile", { mode: "embedding" });
    expect(hit!.key).toBe("car");
    expect(hit!.explain!.degraded).toBeUndefined();
    await second.close();
  });

  it("treats a change of dimensions alone as a fingerprint change", async () => {
    const path = tempDbPath();
    const first = createSqliteMemory({ path, embedder: createTestEmbedder({ dimensions: 32 }) });
    await first.store({ key: "a", content: "alpha" });
    await first.close();
    const second = createSqliteMemory({ path, embedder: createTestEmbedder({ dimensions: 48 }) });
    expect((await second.healthCheck()).vector.status).toBe("degraded");
    await second.close();
  });
});

describe("deferred embedding", () => {
  it("returns from store before the embedding, and flush drains the queue", async () => {
    const gate = gated(createTestEmbedder({ dimensions: 32 }));
    const memory = createSqliteMemory({
      path: tempDbPath(),
      embedder: gate.provider,
      deferEmbedding: true,
    });
    await memory.store({ key: "k", content: "the espresso machine" });
    // Stored and keyword-searchable at once, not yet embedded.
    expect((await memory.recall("espresso", { mode: "bm25" }))[0]!.key).toBe("k");
    expect((await memory.healthCheck()).pendingEmbeddings).toBe(1);
    gate.open();
    await memory.flush();
    expect((await memory.healthCheck()).pendingEmbeddings).toBe(0);
    expect((await memory.get("k", { withEmbedding: true }))!.embedding).toHaveLength(32);
    await memory.close();
  });

  it("drops a stale vector when the content changed while it was being computed", async () => {
    const inner = createTestEmbedder({ dimensions: 32 });
    const gate = gated(inner);
    const memory = createSqliteMemory({
      path: tempDbPath(),
      embedder: gate.provider,
      deferEmbedding: true,
      embeddingBatchSize: 1,
    });
    await memory.store({ key: "k", content: "first version about coffee" });
    while (gate.calls.length === 0) await new Promise((resolve) => setImmediate(resolve));
    // The first embedding is in flight; the content changes under it.
    await memory.store({ key: "k", content: "second version about dogs" });
    gate.open();
    await memory.flush();
    const stored = await memory.get("k", { withEmbedding: true });
    expect(stored!.embedding).toEqual(
      Array.from(Float32Array.from(await inner.embedOne("second version about dogs"))),
    );
    expect((await memory.healthCheck()).pendingEmbeddings).toBe(0);
    await memory.close();
  });

  it("close() drains pending embeddings", async () => {
    const path = tempDbPath();
    const memory = createSqliteMemory({
      path,
      embedder: createTestEmbedder({ dimensions: 32 }),
      deferEmbedding: true,
    });
    for (let i = 0; i < 20; i++) await memory.store({ key: `k${i}`, content: `text number ${i}` });
    await memory.close();
    const db = new Database(path, { readonly: true });
    expect((db.prepare("SELECT count(*) AS n FROM memory_vectors").get() as { n: number }).n).toBe(
      20,
    );
    db.close();
  });
});

describe("embedding cache", () => {
  it("serves a cached vector without calling the provider, across instances", async () => {
    const path = tempDbPath();
    const embedder = createTestEmbedder({ dimensions: 32 });
    const first = createSqliteMemory({ path, embedder });
    await first.store({ key: "a", content: "the same text" });
    await first.close();
    const callsBefore = embedder.calls;
    const second = createSqliteMemory({ path, embedder });
    await second.store({ key: "b", content: "the same text" });
    expect(embedder.calls).toBe(callsBefore);
    expect((await second.get("b", { withEmbedding: true }))!.embedding).toHaveLength(32);
    await second.close();
  });

  it("evicts the least recently used rows beyond embedding_cache_max", async () => {
    const path = tempDbPath();
    const embedder = createTestEmbedder({ dimensions: 32 });
    const memory = createSqliteMemory({ path, embedder, embeddingCacheMax: 2 });
    await memory.store({ key: "a", content: "text a" });
    await memory.store({ key: "b", content: "text b" });
    await memory.store({ key: "a2", content: "text a" }); // touches "text a"
    await memory.store({ key: "c", content: "text c" }); // evicts "text b", the least recently used
    const calls = embedder.calls;
    await memory.store({ key: "a3", content: "text a" });
    expect(embedder.calls).toBe(calls);
    await memory.store({ key: "b2", content: "text b" });
    expect(embedder.calls).toBe(calls + 1);
    await memory.close();
    const db = new Database(path, { readonly: true });
    const documents = db
      .prepare("SELECT count(*) AS n FROM embedding_cache WHERE fingerprint NOT LIKE '%#query'")
      .get() as { n: number };
    expect(documents.n).toBeLessThanOrEqual(2);
    db.close();
  });
});

describe("a provider that returns NaN or Infinity", () => {
  it("never gets its vectors stored; the entry stays pending and recall stays finite", async () => {
    const inner = createTestEmbedder();
    let broken = true;
    const provider: EmbeddingProvider = {
      ...inner,
      async embed(texts, options) {
        const vectors = await inner.embed(texts, options);
        return broken
          ? vectors.map((vector) => vector.map((v, i) => (i === 0 ? Number.NaN : v)))
          : vectors;
      },
      async embedOne(text, options) {
        return (await provider.embed([text], options))[0]!;
      },
    };
    const path = tempDbPath();
    const memory = createSqliteMemory({ path, embedder: provider, logger: () => {} });
    await memory.store({ key: "coffee", content: "The user drinks espresso" });
    const health = await memory.healthCheck();
    expect(health.pendingEmbeddings).toBe(1);
    const raw = new Database(path, { readonly: true });
    expect(raw.prepare("SELECT count(*) AS n FROM memory_vectors").get()).toEqual({ n: 0 });
    raw.close();
    // The query vector is broken too: keyword answer, finite score, and the reason.
    const [result] = await memory.recall("espresso", { mode: "hybrid" });
    expect(result?.key).toBe("coffee");
    expect(Number.isFinite(result!.score)).toBe(true);
    expect(result!.explain!.degraded).toMatch(/NaN or Infinity/);
    broken = false;
    expect((await memory.backfillEmbeddings()).embedded).toBe(1);
    await memory.close();
  });
});

describe("vectors stored before fingerprints were recorded, of another size than the provider's", () => {
  it("leave recall keyword-only and take no new vector, with the store's reason, until reindex", async () => {
    const path = tempDbPath();
    const before = createSqliteMemory({ path, logger: () => {} });
    // No provider: a given vector is stored and fixes the size, and no fingerprint is recorded.
    await before.store({ key: "old", content: "The user drinks espresso", embedding: [1, 0, 0] });
    await before.close();
    const embedder = createTestEmbedder();
    const memory = createSqliteMemory({ path, embedder, logger: () => {} });
    const health = await memory.healthCheck();
    expect(health.vector.status).toBe("degraded");
    expect(health.vector.reason).toMatch(/stored vectors have 3 dimensions/);
    await memory.store({ key: "new", content: "The user drinks green tea" });
    const [result] = await memory.recall("espresso", { mode: "hybrid" });
    expect(result?.key).toBe("old");
    expect(result!.explain!.degraded).toMatch(/stored vectors have 3 dimensions/);
    await expect(memory.backfillEmbeddings()).rejects.toThrow(/Run reindex\(\) instead/);
    const raw = new Database(path, { readonly: true });
    expect(raw.prepare("SELECT count(*) AS n FROM memory_vectors").get()).toEqual({ n: 1 });
    raw.close();
    expect((await memory.reindex()).embedded).toBe(2);
    expect((await memory.healthCheck()).vector.status).toBe("ok");
    await memory.close();
  });
});
