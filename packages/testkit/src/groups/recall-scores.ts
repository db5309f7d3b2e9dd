import type { EmbeddingProvider, Memory, MemoryEntry, SearchMode } from "@memory/api";
import { describe, expect, it } from "vitest";
import type { ConformanceOptions } from "../conformance-options.js";
import { itWith } from "../declarations.js";
import { keys, useInstances } from "../fixture.js";
import { createTestEmbedder } from "../test-embedder.js";

/** `min_score` of an empty memory.toml: recall drops results below it unless `minScore` is passed. */
export const DEFAULT_MIN_SCORE = 0.3;

/** A small, realistic personal store: one fact per entry, as an agent would write them. */
export const PERSONAL_FACTS: readonly { key: string; content: string }[] = [
  { key: "dog", content: "The user's dog is named Rex" },
  { key: "job", content: "The user works as a nurse in Lyon" },
  { key: "sister", content: "The user's sister Clara lives in Montreal" },
  { key: "allergy", content: "The user is allergic to peanuts and shellfish" },
  { key: "coffee", content: "The user drinks a flat white every morning" },
  { key: "car", content: "The user drives a blue Toyota Corolla" },
  { key: "birthday", content: "The user's birthday is on March 14" },
  { key: "language", content: "The user is learning Japanese on weekends" },
  { key: "running", content: "The user runs a half marathon every spring" },
  { key: "diet", content: "The user has been vegetarian since 2019" },
  { key: "music", content: "The user plays the cello in a community orchestra" },
  { key: "partner", content: "The user's partner is called Sam and works as a teacher" },
  { key: "apartment", content: "The user rents a two-bedroom apartment near the river" },
  { key: "book", content: "The user's favourite book is One Hundred Years of Solitude" },
  { key: "vacation", content: "The user is planning a hiking trip to Norway in July" },
];

const NONSENSE = "quantum chromodynamics lecture notes";

/**
 * The test embedder with 256 dimensions. At its default 64, hash collisions alone give two
 * unrelated texts cosines up to about 0.3, above the embedder's calibration floor (0.1), so a
 * nonsense query would get vector relevance from noise; at 256 unrelated texts stay near 0.
 */
const scoringEmbedder = (): EmbeddingProvider => createTestEmbedder({ dimensions: 256 });

function expectUnit(value: number | undefined, what: string): void {
  if (value === undefined) return;
  expect(value, what).toBeGreaterThanOrEqual(0);
  expect(value, what).toBeLessThanOrEqual(1);
}

function scoreOf(results: readonly MemoryEntry[], key: string): number {
  const entry = results.find((result) => result.key === key);
  expect(entry, `${key} in ${JSON.stringify(keys(results))}`).toBeDefined();
  return entry!.score!;
}

/**
 * What a recall score means, on every backend: relevance in [0, 1] (x decay), comparable to the
 * default `min_score` (0.3) whatever the store; LIKE matches score 0.5 x the share of query
 * keywords found.
 */
export function recallScoresGroup(options: ConformanceOptions): void {
  describe(`${options.name}: recall scores`, { timeout: options.timeoutMs ?? 60_000 }, () => {
    const instances = useInstances(options);

    /** The personal store, keyword-only (no embedder). */
    const personal = async (facts = PERSONAL_FACTS): Promise<Memory> => {
      const memory = await instances.create();
      for (const fact of facts) await memory.store({ ...fact, category: "core" });
      return memory;
    };
    /** The personal store with the (256-dimension) test embedder, or undefined without vector search. */
    const personalWithVectors = async (facts = PERSONAL_FACTS): Promise<Memory | undefined> => {
      const memory = await instances.create(scoringEmbedder());
      if (!memory.capabilities.vectorSearch) return undefined;
      for (const fact of facts) await memory.store({ ...fact, category: "core" });
      await memory.flush();
      return memory;
    };
    /** [memory, modes to check]: keyword modes always, hybrid and embedding with vectors. */
    const setups = async (facts = PERSONAL_FACTS) => {
      const list: [Memory, SearchMode[]][] = [[await personal(facts), ["bm25", "hybrid"]]];
      const vectors = await personalWithVectors(facts);
      if (vectors) list.push([vectors, ["bm25", "hybrid", "embedding"]]);
      return list;
    };

    it("keeps every score and every part of it in [0, 1], with score = fused x decay", async () => {
      const extra = [
        // Far more often, in a far shorter entry, than the average: raw BM25 well above its IDF.
        { key: "rex-rex", content: "Rex Rex Rex Rex Rex Rex" },
        {
          key: "long",
          content: `The user keeps a diary. ${"Nothing much happened today. ".repeat(40)}`,
        },
      ];
      let checked = 0;
      let best = 0;
      for (const [memory, modes] of await setups([...PERSONAL_FACTS, ...extra])) {
        const old = new Date(Date.now() - 10 * 86_400_000).toISOString();
        await memory.importEntries([
          {
            key: "old-daily",
            content: "The user met Rex's vet",
            category: "daily",
            createdAt: old,
            updatedAt: old,
          },
        ]);
        await memory.flush();
        for (const query of [
          "Rex",
          "The user's dog is named Rex",
          "nurse Lyon",
          "what is the",
          NONSENSE,
          "user",
          "diary happened",
        ]) {
          for (const mode of modes) {
            for (const result of await memory.recall(query, { mode, minScore: 0, limit: 20 })) {
              const explain = result.explain!;
              const what = `${mode} ${JSON.stringify(query)} -> ${result.key}`;
              expect(result.score, what).toBeGreaterThanOrEqual(0);
              expect(result.score, what).toBeLessThanOrEqual(1);
              expectUnit(explain.fused, `${what} fused`);
              expectUnit(explain.decay, `${what} decay`);
              expectUnit(explain.keywordRelevance, `${what} keywordRelevance`);
              expectUnit(explain.vectorRelevance, `${what} vectorRelevance`);
              expect(result.score, what).toBeCloseTo(explain.fused * explain.decay, 12);
              best = Math.max(best, result.score!);
              checked++;
            }
          }
        }
      }
      expect(checked).toBeGreaterThan(50);
      // Relevance really spans the range: a strong match scores high, not just "above 0".
      expect(best).toBeGreaterThan(0.8);
    });

    it("returns nothing for a query about something the store never mentions", async () => {
      for (const [memory, modes] of await setups()) {
        for (const mode of modes) {
          expect(await memory.recall(NONSENSE, { mode }), mode).toEqual([]);
          const all = await memory.recall(NONSENSE, { mode, minScore: 0, limit: 20 });
          for (const result of all)
            expect(result.score, `${mode} -> ${result.key}`).toBeLessThan(DEFAULT_MIN_SCORE);
        }
      }
    });

    it("scores one shared common word below the default threshold (keywords)", async () => {
      // "user" is in every entry: the rest of the query (absent from the store) weighs the most.
      for (const [memory, modes] of await setups()) {
        // Keyword relevance only: with vectors, the embedder's view of the shared word counts too.
        const keywordModes = memory.capabilities.vectorSearch ? ["bm25" as const] : modes;
        for (const mode of keywordModes) {
          const all = await memory.recall(`user ${NONSENSE}`, { mode, minScore: 0, limit: 20 });
          expect(all.length, mode).toBeGreaterThan(0);
          for (const result of all) expect(result.score, mode).toBeLessThan(DEFAULT_MIN_SCORE);
        }
      }
    });

    it("returns an exact or near-exact question about a stored fact first, above the threshold", async () => {
      const cases: [string, string][] = [
        ["The user's dog is named Rex", "dog"],
        ["What is the name of the user's dog?", "dog"],
        ["Where does the user work as a nurse?", "job"],
        ["the user's sister Clara", "sister"],
      ];
      for (const facts of [PERSONAL_FACTS, PERSONAL_FACTS.slice(0, 3)]) {
        for (const [memory, modes] of await setups(facts)) {
          for (const mode of modes.filter((m) => m !== "embedding")) {
            for (const [query, key] of cases) {
              const results = await memory.recall(query, { mode });
              const what = `${facts.length} entries, ${mode}, ${query}`;
              expect(results[0]?.key, what).toBe(key);
              expect(results[0]!.score, what).toBeGreaterThan(DEFAULT_MIN_SCORE);
            }
          }
        }
      }
    });

    it("scores a query higher the more of it an entry matches", async () => {
      const facts = [
        ...PERSONAL_FACTS,
        { key: "neighbour-dog", content: "The neighbour's dog is named Max" },
      ];
      for (const [memory, modes] of await setups(facts)) {
        for (const mode of modes.filter((m) => m !== "embedding")) {
          const score = async (query: string, key: string) =>
            scoreOf(await memory.recall(query, { mode, minScore: 0, limit: 20 }), key);
          // One entry, queries matching all, two thirds, one third of their words.
          const all = await score("works nurse Lyon", "job");
          const twoThirds = await score("works nurse Paris", "job");
          const oneThird = await score("works Berlin Paris", "job");
          expect(all, mode).toBeGreaterThan(twoThirds);
          expect(twoThirds, mode).toBeGreaterThan(oneThird);
          // All of the query's words vs half of them (the other is unknown to the store).
          expect(await score("nurse Lyon", "job"), mode).toBeGreaterThan(
            await score("nurse Paris", "job"),
          );
          // One query, an entry matching all of it vs one matching half.
          const both = await memory.recall("dog Rex", { mode, minScore: 0, limit: 20 });
          expect(keys(both).slice(0, 2), mode).toEqual(["dog", "neighbour-dog"]);
          expect(scoreOf(both, "dog"), mode).toBeGreaterThan(scoreOf(both, "neighbour-dog"));
          expect(scoreOf(both, "dog"), mode).toBeGreaterThan(DEFAULT_MIN_SCORE);
        }
      }
    });

    it("keeps a query made only of stop words below the default threshold", async () => {
      const memory = await personal();
      const all = await memory.recall("what is the", { mode: "bm25", minScore: 0, limit: 20 });
      // It does match ("the", "is" are in the entries), only weakly.
      expect(all.length).toBeGreaterThan(3);
      for (const result of all) expect(result.score).toBeLessThan(DEFAULT_MIN_SCORE);
      expect(await memory.recall("what is the", { mode: "bm25" })).toEqual([]);
    });

    itWith(options, "vectorSearch")("never counts a negative cosine as relevance", async () => {
      const embedder = createTestEmbedder();
      const memory = await instances.createVector(embedder);
      const query = "weekend sailing lessons";
      const q = await embedder.embedOne(query);
      // A unit vector orthogonal to q: a basis vector minus its projection on q.
      const axis = q.findIndex((value) => Math.abs(value) < 0.5);
      const orthogonal = q.map((value, i) => (i === axis ? 1 : 0) - q[axis]! * value);
      const norm = Math.hypot(...orthogonal);
      const half = q.map((value, i) => -0.5 * value + (Math.sqrt(3) / 2) * (orthogonal[i]! / norm));
      await memory.store({
        key: "sailing",
        content: "The user takes sailing lessons every weekend",
      });
      await memory.store({
        key: "opposite",
        content: "first placeholder",
        embedding: q.map((v) => -v),
      });
      await memory.store({ key: "minus-half", content: "second placeholder", embedding: half });
      await memory.flush();
      expect(keys(await memory.recall(query, { mode: "embedding" }))).toEqual(["sailing"]);
      for (const mode of ["embedding", "hybrid"] as const) {
        const all = await memory.recall(query, { mode, minScore: 0, limit: 10 });
        const opposite = all.find((entry) => entry.key === "opposite");
        const minusHalf = all.find((entry) => entry.key === "minus-half");
        expect(opposite?.explain?.cosine, mode).toBeCloseTo(-1, 5);
        expect(minusHalf?.explain?.cosine, mode).toBeCloseTo(-0.5, 5);
        for (const entry of [opposite!, minusHalf!]) {
          expect(entry.explain!.vectorRelevance, `${mode} ${entry.key}`).toBe(0);
          expect(entry.score, `${mode} ${entry.key}`).toBe(0);
        }
      }
    });

    it("scores a substring-only (LIKE) match 0.5 x the share of query keywords found", async () => {
      const memory = await instances.create();
      await memory.store({ key: "logs", content: "error code in the logs" });
      await memory.store({ key: "other", content: "the user likes tea" });
      for (const mode of ["hybrid", "embedding"] as const) {
        // "rror" is inside a word: the word index cannot match it, the LIKE fallback can.
        const one = await memory.recall("rror", { mode });
        expect(keys(one), mode).toEqual(["logs"]);
        expect(one[0]!.explain!.source, mode).toBe("like");
        expect(one[0]!.score, mode).toBe(0.5);
        expect(one[0]!.explain!.fused, mode).toBe(0.5);
        // One keyword of two: 0.25, below the default threshold.
        expect(await memory.recall("rror zzqx", { mode }), mode).toEqual([]);
        const half = await memory.recall("rror zzqx", { mode, minScore: 0 });
        expect(keys(half), mode).toEqual(["logs"]);
        expect(half[0]!.explain!.source, mode).toBe("like");
        expect(half[0]!.score, mode).toBe(0.25);
        // Two keywords of three: 1/3, just above it.
        const twoThirds = await memory.recall("rror ogs zzqx", { mode });
        expect(keys(twoThirds), mode).toEqual(["logs"]);
        expect(twoThirds[0]!.score, mode).toBeCloseTo(1 / 3, 12);
      }
    });

    itWith(options, "vectorSearch")(
      "falls back to LIKE, with the same score, when vectors find nothing relevant",
      async () => {
        const memory = await instances.createVector(scoringEmbedder());
        await memory.store({ key: "logs", content: "error code in the logs" });
        await memory.store({ key: "other", content: "the user likes tea" });
        await memory.flush();
        for (const mode of ["hybrid", "embedding"] as const) {
          const results = await memory.recall("rror", { mode });
          expect(keys(results), mode).toEqual(["logs"]);
          expect(results[0]!.explain!.source, mode).toBe("like");
          expect(results[0]!.score, mode).toBe(0.5);
        }
      },
    );
  });
}
