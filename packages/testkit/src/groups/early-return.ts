import type { Memory, MemoryEntry, RetrievalSettings } from "@memory/api";
import { describe, expect, it } from "vitest";
import type { ConformanceOptions } from "../conformance-options.js";
import { expectSettingsApplied, keys, useInstances } from "../fixture.js";
import { createTestEmbedder } from "../test-embedder.js";

const LATTE_ENTRIES = [
  { key: "latte-afternoon", content: "Prefers a latte in the afternoon" },
  { key: "latte-oat", content: "Orders the latte with oat milk" },
  { key: "latte-art", content: "Took a latte art class last spring with a friend from work" },
];
/** Found by meaning only: "espresso" and "latte" are one concept for the test embedder. */
const ESPRESSO = { key: "espresso", content: "Drinks two espresso shots every morning" };
const OTHERS = [
  { key: "car", content: "My car needs new tyres before winter" },
  { key: "dog", content: "Walks the puppy in the park at noon" },
];

const vectorStageRan = (result: MemoryEntry) =>
  result.explain?.source === "hybrid" && result.explain.cosine !== undefined;

/**
 * `fts_early_return_score` (off by default): hybrid recall skips the vector stage only when the
 * keyword hits fill the limit and the best of them is at least that relevant.
 */
export function earlyReturnGroup(options: ConformanceOptions): void {
  describe(`${options.name}: early return`, { timeout: options.timeoutMs ?? 60_000 }, () => {
    const instances = useInstances(options);

    /** A store with the test embedder (vector search is this group's precondition) and the settings. */
    const open = async (latte: number, settings?: Partial<RetrievalSettings>): Promise<Memory> => {
      const memory = await instances.createVector(createTestEmbedder(), settings);
      if (settings) await expectSettingsApplied(instances);
      for (const entry of [...LATTE_ENTRIES.slice(0, latte), ESPRESSO, ...OTHERS])
        await memory.store({ ...entry, category: "core" });
      await memory.flush();
      return memory;
    };

    it("runs the vector stage when keyword hits are fewer than the limit, however decisive", async () => {
      const memory = await open(1, { ftsEarlyReturnScore: 0.1 });
      const results = await memory.recall("latte", { mode: "hybrid", limit: 5, minScore: 0 });
      expect(results[0]!.key).toBe("latte-afternoon");
      expect(results[0]!.explain!.keywordRelevance).toBeGreaterThan(0.1);
      // Only the vector stage can find this one.
      const espresso = results.find((result) => result.key === ESPRESSO.key);
      expect(espresso?.explain?.source).toBe("hybrid");
      expect(espresso!.explain!.vectorRank).toBeDefined();
      expect(espresso!.explain!.keywordRank).toBeUndefined();
      for (const result of results) {
        expect(result.explain!.earlyReturn, result.key).toBeUndefined();
        expect(vectorStageRan(result), result.key).toBe(true);
      }
    });

    it("returns early, from keywords, when hits fill the limit and the best is decisive", async () => {
      const memory = await open(3, { ftsEarlyReturnScore: 0.1 });
      const results = await memory.recall("latte", { mode: "hybrid", limit: 2 });
      expect(results).toHaveLength(2);
      expect(keys(results).every((key) => key.startsWith("latte-"))).toBe(true);
      for (const result of results) {
        expect(result.explain, result.key).toMatchObject({ source: "keyword", earlyReturn: true });
        expect(result.explain!.cosine, result.key).toBeUndefined();
        expect(result.explain!.vectorRank, result.key).toBeUndefined();
      }
      // Asked for more than the keyword hits: the vector stage runs again.
      const more = await memory.recall("latte", { mode: "hybrid", limit: 5, minScore: 0 });
      expect(keys(more)).toContain(ESPRESSO.key);
      expect(more.every((result) => result.explain!.earlyReturn === undefined)).toBe(true);
    });

    it("runs the vector stage when hits fill the limit but the best is below the setting", async () => {
      // Keyword relevance stays below 1 by construction; 0.99 is out of reach for one word.
      const memory = await open(3, { ftsEarlyReturnScore: 0.99 });
      const results = await memory.recall("latte", { mode: "hybrid", limit: 2 });
      expect(results).toHaveLength(2);
      for (const result of results) {
        expect(result.explain!.earlyReturn, result.key).toBeUndefined();
        expect(vectorStageRan(result), result.key).toBe(true);
      }
    });

    it("never returns early with the default settings", async () => {
      const memory = await open(3);
      for (const [query, limit] of [
        ["latte", 1],
        ["latte", 2],
        ["latte oat milk", 1],
        ["latte", 5],
      ] as const) {
        const results = await memory.recall(query, { mode: "hybrid", limit });
        expect(results.length, `${query} ${limit}`).toBeGreaterThan(0);
        for (const result of results) {
          expect(result.explain!.earlyReturn, `${query} ${limit} ${result.key}`).toBeUndefined();
          expect(vectorStageRan(result), `${query} ${limit} ${result.key}`).toBe(true);
        }
      }
    });
  });
}
