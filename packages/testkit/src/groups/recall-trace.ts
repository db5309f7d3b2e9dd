import type { Memory, RecallTrace } from "@memory/api";
import { describe, expect, it } from "vitest";
import type { ConformanceOptions } from "../conformance-options.js";
import { declares } from "../declarations.js";
import { keys, useInstances } from "../fixture.js";
import { createTestEmbedder } from "../test-embedder.js";

const candidate = (trace: RecallTrace, key: string) => {
  const found = trace.candidates.find((c) => c.key === key);
  if (!found) throw new Error(`${key} is not a candidate of the trace: ${keys(trace.candidates)}`);
  return found;
};

/**
 * `explainRecall` ("why, and why not?"): every candidate kept or dropped with its reason and the
 * numbers, the results exactly those of `recall`, and a focused key explained even when no stage
 * picked it. The reasons come from the engine's own drops, so they agree on every backend.
 */
export function recallTraceGroup(options: ConformanceOptions): void {
  describe(`${options.name}: recall trace`, { timeout: options.timeoutMs ?? 60_000 }, () => {
    const instances = useInstances(options);

    const sameAsRecall = async (memory: Memory, query: string, recallOptions: object) => {
      const trace = await memory.explainRecall(query, recallOptions);
      expect(keys(trace.results)).toEqual(keys(await memory.recall(query, recallOptions)));
      expect(keys(trace.candidates.filter((c) => c.kept))).toEqual(keys(trace.results));
      return trace;
    };

    it("reports a candidate under the threshold with its score, relevance and the threshold", async () => {
      const memory = await instances.create();
      await memory.store({ key: "full", content: "alpha beta" });
      await memory.store({ key: "half", content: "alpha gamma delta epsilon zeta" });
      const open = await sameAsRecall(memory, "alpha beta", { mode: "bm25", minScore: 0 });
      const [best, weaker] = open.results.map((entry) => entry.score!);
      expect(keys(open.results)).toEqual(["full", "half"]);
      expect(best!).toBeGreaterThan(weaker!);
      const minScore = (best! + weaker!) / 2;
      const trace = await sameAsRecall(memory, "alpha beta", { mode: "bm25", minScore });
      expect(trace.settings.minScore).toBe(minScore);
      expect(trace.settings.weights).toEqual({
        keyword: expect.any(Number),
        vector: expect.any(Number),
      });
      const dropped = candidate(trace, "half");
      expect(dropped).toMatchObject({ kept: false, reason: "under_threshold", score: weaker });
      expect(dropped.explain.fused).toBeGreaterThan(0);
      expect(dropped.detail).toContain(`minScore ${String(minScore).slice(0, 5)}`);
      expect(dropped.detail).toContain("relevance");
      expect(candidate(trace, "full").kept).toBe(true);
    });

    it("reports a superseded entry as superseded by its successor", async () => {
      const memory = await instances.create();
      await memory.store({ key: "city-1", content: "lives in Berlin" });
      await memory.store({ key: "city-2", content: "moved to Lisbon from Berlin" });
      await memory.markSuperseded("city-1", "city-2");
      const trace = await sameAsRecall(memory, "berlin", { mode: "bm25" });
      expect(keys(trace.results)).toEqual(["city-2"]);
      const old = candidate(trace, "city-1");
      expect(old).toMatchObject({ kept: false, reason: "superseded" });
      expect(old.detail).toContain('"city-2"');
      expect(old.explain.superseded?.by).toBe("city-2");
      expect(old.explain.keywordRelevance).toBeGreaterThan(0);
    });

    it("reports what a category filter left out, with the entry's category", async () => {
      const memory = await instances.create();
      await memory.store({ key: "fact", content: "topic alpha", category: "core" });
      await memory.store({ key: "log", content: "topic alpha today", category: "daily" });
      const trace = await sameAsRecall(memory, "topic", { mode: "bm25", categories: ["core"] });
      expect(keys(trace.results)).toEqual(["fact"]);
      const left = candidate(trace, "log");
      expect(left).toMatchObject({ kept: false, reason: "filtered", category: "daily" });
      expect(left.detail).toContain('category "daily" is not in categories ["core"]');
      expect(trace.stages.map((stage) => stage.name)).toContain("filter");
    });

    it("reports candidates past the limit with their rank", async () => {
      const memory = await instances.create();
      for (const [key, content] of [
        ["a", "river boat river boat"],
        ["b", "river boat trip"],
        ["c", "a river and a boat and more words here"],
        ["d", "one river somewhere far away from any boat at all today"],
      ])
        await memory.store({ key: key!, content: content!, category: "core" });
      const trace = await sameAsRecall(memory, "river boat", {
        mode: "bm25",
        limit: 2,
        minScore: 0,
      });
      expect(trace.results).toHaveLength(2);
      const over = trace.candidates.filter((c) => c.reason === "over_limit");
      expect(over).toHaveLength(2);
      expect(over.map((c) => c.detail)).toEqual([
        expect.stringContaining("ranked 3, limit 2"),
        expect.stringContaining("ranked 4, limit 2"),
      ]);
      expect(trace.settings.limit).toBe(2);
    });

    it("explains a focused key that no stage picked, and one that does not exist", async () => {
      const memory = await instances.create();
      await memory.store({ key: "boat", content: "river boat trip" });
      await memory.store({ key: "zebra", content: "stripes on the savanna" });
      const trace = await memory.explainRecall("river boat", { mode: "bm25", key: "zebra" });
      expect(trace.focus).toMatchObject({ key: "zebra", exists: true, keywordRelevance: 0 });
      expect(trace.focus?.verdict).toContain("not a candidate at all: no query word matches it");
      const kept = await memory.explainRecall("river boat", { mode: "bm25", key: "boat" });
      expect(kept.focus?.verdict).toContain("is in the results, rank 1");
      const missing = await memory.explainRecall("river boat", { mode: "bm25", key: "nope" });
      expect(missing.focus).toMatchObject({ exists: false });
      expect(missing.focus?.verdict).toContain("no entry has this key");
    });

    if (declares(options, "vectorSearch"))
      it("says how far below the vector stage's bar a focused key's cosine was", async () => {
        const memory = await instances.createVector(createTestEmbedder());
        await memory.store({ key: "boat", content: "river boat trip", category: "core" });
        await memory.store({ key: "zebra", content: "stripes on the savanna", category: "core" });
        await memory.flush();
        const trace = await sameAsRecall(memory, "river boat", { mode: "hybrid", minScore: 0 });
        expect(trace.settings.vectorCalibration.full).toBeGreaterThan(
          trace.settings.vectorCalibration.floor,
        );
        expect(trace.stages.find((stage) => stage.name === "vector")?.count).toBeGreaterThan(0);
        const focused = await memory.explainRecall("river boat", {
          mode: "hybrid",
          limit: 1,
          key: "zebra",
        });
        const zebra = focused.focus!;
        expect(zebra.exists).toBe(true);
        // Two entries fit the vector stage's pool: zebra is a candidate, dropped, with its cosine.
        expect(zebra.candidate).toMatchObject({ key: "zebra", kept: false });
        expect(zebra.candidate?.explain.cosine).toEqual(expect.any(Number));
        expect(zebra.verdict).toContain('"zebra" is a candidate but dropped');
      });
  });
}
