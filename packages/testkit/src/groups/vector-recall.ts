import { type EmbeddingProvider, embeddingFingerprint, MemoryError } from "@memory/api";
import { describe, expect, it } from "vitest";
import type { ConformanceOptions } from "../conformance-options.js";
import { itWith, requireFeature } from "../declarations.js";
import { caught, expectSettingsApplied, keys, useInstances } from "../fixture.js";
import { createTestEmbedder } from "../test-embedder.js";

/**
 * Three orthogonal concepts (cars, gardens, anything else): cosines are exactly 1 or 0, so a
 * test can place neighbours at cosine 0 on every backend.
 */
function conceptEmbedder(): EmbeddingProvider {
  const vector = (text: string) => {
    const car = /\bcar\b/i.test(text) ? 1 : 0;
    const garden = /\btomato/i.test(text) ? 1 : 0;
    return [car, garden, car + garden === 0 ? 1 : 0];
  };
  return {
    name: "concepts",
    model: "three",
    dimensions: 3,
    fingerprint: embeddingFingerprint("concepts", "three", 3),
    async embed(texts) {
      return texts.map(vector);
    },
    async embedOne(text) {
      return vector(text);
    },
  };
}

/** Recall with embeddings: vector-only, hybrid fusion, degradation and fingerprints. */
export function vectorRecallGroup(options: ConformanceOptions): void {
  describe(`${options.name}: vector recall`, { timeout: options.timeoutMs ?? 60_000 }, () => {
    const instances = useInstances(options);
    const seeded = async (embedder = createTestEmbedder()) => {
      const memory = await instances.createVector(embedder);
      await memory.store({ key: "car", content: "My car needs new tyres before winter" });
      await memory.store({ key: "coffee", content: "Drinks two espresso shots every morning" });
      await memory.store({ key: "dog", content: "Walks the puppy in the park at noon" });
      await memory.flush();
      return memory;
    };

    itWith(options, "vectorSearch")(
      "finds by meaning what keywords cannot (embedding mode)",
      async () => {
        const memory = await seeded();
        const results = await memory.recall("automobile maintenance", { mode: "embedding" });
        expect(results[0]?.key).toBe("car");
        expect(results[0]!.explain).toMatchObject({
          mode: "embedding",
          source: "vector",
          vectorRank: 0,
        });
        expect(results[0]!.explain!.cosine).toBeGreaterThan(0.2);
      },
    );

    itWith(options, "vectorSearch")(
      "combines keyword and vector relevance in hybrid mode and explains both",
      async () => {
        const memory = await seeded();
        await memory.store({ key: "latte", content: "Prefers a latte in the afternoon" });
        await memory.flush();
        // Only "latte" matches the keyword; "coffee" (espresso) can only come from the vector stage.
        // minScore 0: this pins how the stages combine, not the threshold.
        const results = await memory.recall("latte", { mode: "hybrid", limit: 3, minScore: 0 });
        expect(results[0]?.key).toBe("latte");
        const top = results[0]!.explain!;
        expect(top.source).toBe("hybrid");
        expect(top.keywordRank).toBe(0);
        expect(top.vectorRank).toBeDefined();
        expect(keys(results)).toContain("coffee");
        // Default merge: the weighted mean of both parts (keyword_weight 0.7, vector_weight 0.3),
        // never less than half the stronger part.
        for (const result of results) {
          const explain = result.explain!;
          expect(explain.strategy, result.key).toBe("weighted");
          const keyword = explain.keywordRelevance!;
          const vector = explain.vectorRelevance!;
          expect(explain.fused, result.key).toBeCloseTo(
            Math.max(0.7 * keyword + 0.3 * vector, 0.5 * Math.max(keyword, vector)),
            12,
          );
        }
      },
    );

    itWith(options, "vectorSearch")(
      "with rrf, gives vector neighbours at cosine 0 no rank, so they add nothing to the fusion",
      async () => {
        await expectSettingsApplied(instances);
        const memory = await instances.createVector(conceptEmbedder(), { mergeStrategy: "rrf" });
        await memory.store({ key: "car", content: "car tyres" });
        await memory.store({ key: "garden", content: "tomato tyres" });
        await memory.store({ key: "plain", content: "plain tyres" });
        await memory.flush();
        const results = await memory.recall("tyres", { mode: "hybrid", minScore: 0 });
        expect(keys(results).sort()).toEqual(["car", "garden", "plain"]);
        for (const { key, explain } of results) {
          const keywordPart = 1 / (60 + explain!.keywordRank! + 1);
          if (key === "plain") {
            expect(explain).toMatchObject({ cosine: 1, vectorRank: 0 });
            expect(explain!.rrf).toBeCloseTo(keywordPart + 1 / 61, 12);
          } else {
            expect(explain!.cosine, key).toBeCloseTo(0, 6);
            expect(explain!.vectorRank, key).toBeUndefined();
            expect(explain!.rrf, key).toBeCloseTo(keywordPart, 12);
          }
        }
      },
    );

    itWith(options, "vectorSearch")(
      "returns embeddings with recall results only when asked",
      async () => {
        const memory = await seeded();
        for (const mode of ["hybrid", "embedding"] as const) {
          const plain = await memory.recall("automobile tyres", { mode });
          expect(plain.length).toBeGreaterThan(0);
          expect(plain.every((entry) => entry.embedding === undefined)).toBe(true);
          const withVectors = await memory.recall("automobile tyres", {
            mode,
            withEmbeddings: true,
          });
          expect(withVectors[0]!.embedding).toHaveLength(64);
        }
      },
    );

    it("degrades to keyword recall and says why when no embedder is configured", async () => {
      const memory = await instances.create();
      await memory.store({ key: "car", content: "My car needs new tyres" });
      const results = await memory.recall("car tyres", { mode: "hybrid" });
      expect(keys(results)).toEqual(["car"]);
      expect(results[0]!.explain!.source).toBe("keyword");
      expect(results[0]!.explain!.degraded).toMatch(/embedding|provider/i);
      const health = await memory.healthCheck();
      expect(health.vector.status).toBe("disabled");
    });

    itWith(
      options,
      "vectorSearch",
      "sharedStore",
    )(
      "never mixes vector spaces: a new fingerprint degrades to keyword until reindex",
      async () => {
        const first = createTestEmbedder({ model: "hash-v1" });
        const shared = await instances.shared();
        const a = await shared.open(first);
        requireFeature(options, a, "vectorSearch");
        await a.store({ key: "car", content: "My car needs new tyres" });
        await a.flush();
        await a.close();
        const b = await shared.open(createTestEmbedder({ model: "hash-v2" }));
        const results = await b.recall("automobile", { mode: "hybrid" });
        expect(
          results.every(
            (entry) => entry.explain!.source !== "vector" && entry.explain!.source !== "hybrid",
          ),
        ).toBe(true);
        const health = await b.healthCheck();
        expect(health.vector.status).toBe("degraded");
        expect(health.vector.reason).toMatch(/reindex/);
        const report = await b.reindex();
        expect(report.embedded).toBe(1);
        expect((await b.healthCheck()).vector.status).toBe("ok");
        expect(keys(await b.recall("automobile", { mode: "embedding" }))).toEqual(["car"]);
      },
    );

    itWith(options, "vectorSearch")(
      "rejects a stored embedding of the wrong size and stores nothing",
      async () => {
        const probe = await instances.createVector(createTestEmbedder());
        const error = await caught(() =>
          probe.store({ key: "k", content: "x", embedding: [1, 2, 3] }),
        );
        expect(MemoryError.hasCode(error, "INVALID_INPUT")).toBe(true);
        expect(await probe.get("k")).toBeNull();
      },
    );

    itWith(options, "vectorSearch")(
      "stores a precomputed embedding and returns it when asked",
      async () => {
        const embedder = createTestEmbedder();
        const memory = await instances.createVector(embedder);
        const vector = await embedder.embedOne("custom vector text");
        await memory.store({ key: "k", content: "anything", embedding: vector });
        await memory.flush();
        const got = await memory.get("k", { withEmbedding: true });
        expect(got!.embedding).toHaveLength(vector.length);
        for (const [i, value] of got!.embedding!.entries())
          expect(value).toBeCloseTo(vector[i]!, 5);
      },
    );

    itWith(options, "vectorSearch")(
      "keeps the write when the embedder fails, and backfills it later",
      async () => {
        const embedder = createTestEmbedder();
        const memory = await instances.createVector(embedder);
        embedder.setFailing(true);
        await memory.store({ key: "car", content: "My car needs new tyres" });
        await memory.flush().catch(() => {});
        expect((await memory.get("car"))!.content).toBe("My car needs new tyres");
        expect(keys(await memory.recall("car", { mode: "bm25" }))).toEqual(["car"]);
        expect((await memory.healthCheck()).pendingEmbeddings).toBe(1);
        embedder.setFailing(false);
        const report = await memory.backfillEmbeddings();
        expect(report).toMatchObject({ embedded: 1, remaining: 0 });
        expect(keys(await memory.recall("automobile", { mode: "embedding" }))).toEqual(["car"]);
      },
    );

    itWith(options, "vectorSearch")("reports progress while reindexing", async () => {
      const memory = await instances.createVector(createTestEmbedder());
      for (let i = 0; i < 25; i++)
        await memory.store({ key: `k${i}`, content: `note number ${i}` });
      await memory.flush();
      const seen: number[] = [];
      const report = await memory.reindex({
        batchSize: 10,
        onProgress: ({ done, total }) => {
          expect(total).toBe(25);
          seen.push(done);
        },
      });
      expect(report.embedded).toBe(25);
      expect(seen.at(-1)).toBe(25);
      expect(seen.length).toBeGreaterThanOrEqual(3);
    });
  });
}
