import type { EmbeddingProvider, MemoryEntry, RetrievalSettings } from "@memory/api";
import { describe, expect, it } from "vitest";
import {
  InMemoryRecallStages,
  type InMemoryRow,
  RecallEngine,
  resolveRetrievalSettings,
} from "../src/index.js";

const NOW = Date.parse("2026-03-15T12:00:00.000Z");

/** Two-concept embedder: pets and drinks; anything else is orthogonal to both. */
function embedder(behaviour: { fail?: boolean; nan?: boolean } = {}): EmbeddingProvider {
  const vector = (text: string) => {
    const pets = /dog|puppy|cat/i.test(text) ? 1 : 0;
    const drinks = /coffee|espresso|tea/i.test(text) ? 1 : 0;
    return [pets, drinks, pets + drinks === 0 ? 1 : 0];
  };
  return {
    name: "unit",
    model: "two-concepts",
    dimensions: 3,
    fingerprint: "unit:two-concepts:3",
    similarityCalibration: { floor: 0.1, full: 0.9 },
    async embed(texts) {
      if (behaviour.fail) throw new Error("provider down");
      return texts.map((text) => (behaviour.nan ? [Number.NaN, 0, 0] : vector(text)));
    },
    async embedOne(text) {
      const [result] = await this.embed([text]);
      return result!;
    },
  };
}

function setup(
  contents: Record<string, string>,
  options: { settings?: Partial<RetrievalSettings>; embedder?: EmbeddingProvider } = {},
) {
  const rows: InMemoryRow[] = Object.entries(contents).map(([key, content], index) => {
    const entry: MemoryEntry = {
      id: `id-${index}`,
      key,
      content,
      category: "core",
      namespace: "default",
      createdAt: new Date(NOW).toISOString(),
      updatedAt: new Date(NOW).toISOString(),
    };
    const row: InMemoryRow = { entry };
    const pets = /dog|puppy|cat/i.test(content) ? 1 : 0;
    const drinks = /coffee|espresso|tea/i.test(content) ? 1 : 0;
    row.vector = [pets, drinks, pets + drinks === 0 ? 1 : 0];
    return row;
  });
  let version = 0;
  let keywordCalls = 0;
  class CountingStages extends InMemoryRecallStages {
    override keyword(request: Parameters<InMemoryRecallStages["keyword"]>[0]) {
      keywordCalls++;
      return super.keyword(request);
    }
  }
  const counting = new CountingStages({
    rows: () => rows,
    allRows: () => rows,
    ...(options.embedder ? { embedder: options.embedder } : {}),
    changeToken: () => version,
  });
  const engine = new RecallEngine({
    settings: resolveRetrievalSettings(options.settings),
    stages: counting,
    embedder: options.embedder,
    now: () => NOW,
  });
  return {
    engine,
    rows,
    bump: () => version++,
    keywordCalls: () => keywordCalls,
  };
}

const keys = (results: MemoryEntry[]) => results.map((entry) => entry.key);

describe("RecallEngine", () => {
  it("returns nothing for limit 0 without touching a stage", async () => {
    const { engine, keywordCalls } = setup({ a: "dog" });
    expect(await engine.recall("dog", { limit: 0 })).toEqual([]);
    expect(keywordCalls()).toBe(0);
  });

  it("serves repeated recalls from the cache until the change token moves", async () => {
    const { engine, bump, keywordCalls } = setup({ a: "the dog sleeps" });
    await engine.recall("dog", { mode: "bm25" });
    await engine.recall("dog", { mode: "bm25" });
    expect(keywordCalls()).toBe(1);
    bump();
    await engine.recall("dog", { mode: "bm25" });
    expect(keywordCalls()).toBe(2);
  });

  it("answers from keywords and says why when the provider throws", async () => {
    const { engine } = setup({ a: "the dog sleeps" }, { embedder: embedder({ fail: true }) });
    const [result] = await engine.recall("dog", { mode: "hybrid" });
    expect(result?.key).toBe("a");
    expect(result!.explain!.source).toBe("keyword");
    expect(result!.explain!.degraded).toMatch(/provider failed \(provider down\)/);
  });

  it("treats a non-finite query vector as a provider failure", async () => {
    const { engine } = setup({ a: "the dog sleeps" }, { embedder: embedder({ nan: true }) });
    const [result] = await engine.recall("dog", { mode: "embedding" });
    expect(result!.explain!.degraded).toMatch(/non-finite/);
    expect(Number.isFinite(result!.score)).toBe(true);
  });

  it("computes the missing part of every hybrid candidate", async () => {
    const { engine } = setup(
      { morning: "Drinks espresso every morning", other: "Likes hiking" },
      { embedder: embedder() },
    );
    const results = await engine.recall("coffee", { mode: "hybrid", minScore: 0 });
    const coffee = results.find((entry) => entry.key === "morning")!;
    // Found by the vector stage only; its keyword part is computed, not assumed.
    expect(coffee.explain!.keywordScore).toBe(0);
    expect(coffee.explain!.keywordRelevance).toBe(0);
    expect(coffee.explain!.vectorRelevance).toBe(1);
  });

  it("orders ties by key, whatever the storage order", async () => {
    const { engine } = setup({ c: "same words here", a: "same words here", b: "same words here" });
    expect(keys(await engine.recall("same words", { mode: "bm25" }))).toEqual(["a", "b", "c"]);
  });

  it("skips the vector stage only when keyword hits fill the limit decisively", async () => {
    const settings = { ftsEarlyReturnScore: 0.1 };
    const filled = setup(
      { a: "dog one", b: "dog two", c: "puppy" },
      { settings, embedder: embedder() },
    );
    const early = await filled.engine.recall("dog", { limit: 2 });
    expect(early.every((entry) => entry.explain!.earlyReturn === true)).toBe(true);
    // Only one keyword hit for a limit of 3: the vector stage runs and finds the puppy.
    const fallThrough = await filled.engine.recall("one", { limit: 3, minScore: 0 });
    expect(fallThrough[0]!.explain!.earlyReturn).toBeUndefined();
    expect(fallThrough[0]!.explain!.source).toBe("hybrid");
  });

  it("keeps relevance as the score when rank fusion orders", async () => {
    const { engine } = setup(
      { a: "dog dog", b: "cat" },
      { settings: { mergeStrategy: "rrf" }, embedder: embedder() },
    );
    const results = await engine.recall("dog", { minScore: 0 });
    for (const result of results) {
      expect(result.explain!.rrf).toBeGreaterThan(0);
      expect(result.score).toBe(result.explain!.fused * result.explain!.decay);
      expect(result.score).toBeLessThanOrEqual(1);
    }
  });

  it("gives vector neighbours with cosine 0 no rank, so they add nothing to rank fusion", async () => {
    // "zebra" embeds as neither pets nor drinks: orthogonal (cosine 0) to every entry but "c".
    const { engine } = setup(
      { a: "zebra dog", b: "zebra zebra coffee", c: "plain zebra notes" },
      { settings: { mergeStrategy: "rrf" }, embedder: embedder() },
    );
    const results = await engine.recall("zebra", { minScore: 0 });
    expect(results.map((result) => result.key).sort()).toEqual(["a", "b", "c"]);
    for (const result of results) {
      const explain = result.explain!;
      const keywordPart = 1 / (60 + explain.keywordRank! + 1);
      if (result.key === "c") {
        expect(explain.cosine).toBeGreaterThan(0);
        expect(explain.vectorRank).toBe(0);
        expect(explain.rrf).toBeCloseTo(keywordPart + 1 / 61, 12);
      } else {
        expect(explain.cosine, result.key).toBe(0);
        expect(explain.vectorRank, result.key).toBeUndefined();
        expect(explain.rrf, result.key).toBeCloseTo(keywordPart, 12);
      }
    }
  });

  it("falls back to substrings with a weak score", async () => {
    const { engine } = setup({ a: "error code in the logs" });
    const [result] = await engine.recall("rror", { mode: "hybrid" });
    expect(result!.explain!.source).toBe("like");
    expect(result!.score).toBe(0.5);
  });

  it("applies the default threshold to searches but not to recent entries", async () => {
    const { engine } = setup({ a: "quarterly notes", b: "dog" });
    expect(await engine.recall("quantum chromodynamics lecture notes", { mode: "bm25" })).toEqual(
      [],
    );
    expect(keys(await engine.recall("", { mode: "bm25" }))).toHaveLength(2);
  });
});
