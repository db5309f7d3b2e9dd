import type { Memory } from "@memory/api";
import { describe, expect, it } from "vitest";
import type { ConformanceOptions } from "../conformance-options.js";
import { keys, useInstances } from "../fixture.js";
import { createTestEmbedder, type TestEmbedder } from "../test-embedder.js";

const ENTRIES = [
  { key: "car", content: "My car needs new tyres before winter" },
  { key: "coffee", content: "Drinks two espresso shots every morning" },
  { key: "dog", content: "Walks the puppy in the park at noon" },
  { key: "garden", content: "Grows tomatoes and basil on the balcony" },
];

/**
 * Recall when the embedding provider throws: answered from keywords, never an error, with the
 * reason in `explain.degraded`; normal again once the provider works.
 */
export function degradedRecallGroup(options: ConformanceOptions): void {
  describe(`${options.name}: degraded recall`, { timeout: options.timeoutMs ?? 60_000 }, () => {
    const instances = useInstances(options);

    const seeded = async (): Promise<{ memory: Memory; embedder: TestEmbedder }> => {
      const embedder = createTestEmbedder();
      const memory = await instances.createVector(embedder);
      for (const entry of ENTRIES) await memory.store({ ...entry, category: "core" });
      await memory.flush();
      return { memory, embedder };
    };

    it("answers from keywords and says the provider failed when the embedder throws", async () => {
      const { memory, embedder } = await seeded();
      embedder.setFailing(true);
      // Queries never asked before, so neither results nor query vectors can come from a cache.
      for (const [mode, query, expected] of [
        ["hybrid", "car tyres", ["car"]],
        ["embedding", "espresso shots", ["coffee"]],
        ["hybrid", "balcony", ["garden"]],
        ["embedding", "puppy park", ["dog"]],
      ] as const) {
        const results = await memory.recall(query, { mode });
        expect(keys(results), `${mode} ${query}`).toEqual(expected);
        for (const result of results) {
          const explain = result.explain!;
          expect(explain.mode, `${mode} ${query}`).toBe(mode);
          expect(explain.source, `${mode} ${query}`).toBe("keyword");
          expect(explain.cosine, `${mode} ${query}`).toBeUndefined();
          expect(explain.keywordRank, `${mode} ${query}`).toBe(0);
          expect(typeof explain.degraded, `${mode} ${query}`).toBe("string");
          expect(explain.degraded!.length).toBeGreaterThan(0);
          expect(explain.degraded, `${mode} ${query}`).toMatch(/provider/i);
          expect(explain.degraded, `${mode} ${query}`).toMatch(/fail/i);
        }
      }
      // Nothing found by keywords either: the LIKE fallback answers, still degraded.
      const like = await memory.recall("omatoe", { mode: "hybrid" });
      expect(keys(like)).toEqual(["garden"]);
      expect(like[0]!.explain!.source).toBe("like");
      expect(like[0]!.explain!.degraded).toMatch(/provider/i);
      // A query that matches nothing at all: an empty list, not an error.
      expect(await memory.recall("zzqx", { mode: "embedding" })).toEqual([]);
    });

    it("recalls normally again once the embedder works", async () => {
      const { memory, embedder } = await seeded();
      embedder.setFailing(true);
      const failed = await memory.recall("tyres winter", { mode: "hybrid" });
      expect(failed[0]!.explain!.degraded).toBeDefined();
      embedder.setFailing(false);
      // New queries: a cached degraded answer would not say whether the embedder is used again.
      const hybrid = await memory.recall("car tyres before winter", { mode: "hybrid" });
      expect(hybrid[0]!.key).toBe("car");
      expect(hybrid[0]!.explain!.source).toBe("hybrid");
      expect(hybrid[0]!.explain!.cosine).toBeGreaterThan(0.5);
      // Found by meaning only ("automobile" is "car" to the test embedder).
      const vector = await memory.recall("automobile", { mode: "embedding" });
      expect(keys(vector)[0]).toBe("car");
      expect(vector[0]!.explain!.source).toBe("vector");
      for (const result of [...hybrid, ...vector])
        expect(result.explain!.degraded, result.key).toBeUndefined();
    });
  });
}
