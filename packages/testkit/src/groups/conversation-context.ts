import type { ImportEntry, Memory, RetrievalSettings } from "@memory/api";
import { describe, expect, it } from "vitest";
import type { ConformanceOptions } from "../conformance-options.js";
import { expectSettingsApplied, keys, useInstances } from "../fixture.js";

const AT = "2024-05-08T13:56:00.000Z";

/**
 * One session in write order, all created in the same millisecond (as an import of a dated
 * conversation makes them): neighbours follow write order. Only `ask` mentions painting; the
 * turn after it answers without the word.
 */
const SESSION: ImportEntry[] = [
  { key: "t1", content: "Melanie: I went to the pottery class yesterday." },
  { key: "t2", content: "Caroline: What did you paint for the show?" },
  { key: "t3", content: "Melanie: A lake at sunrise, with the kids watching." },
  { key: "t4", content: "Caroline: Lovely colours, and such a calm morning." },
].map((entry) => ({ ...entry, sessionId: "s1", category: "core", createdAt: AT, updatedAt: AT }));

const OTHERS: ImportEntry[] = [
  // Same words, no session: its relevance is its own.
  { key: "alone", content: "Bought paint for the fence", category: "core" },
  // Another session, with a match of its own and a neighbour that does not match.
  {
    key: "u1",
    content: "Jon: I paint houses for a living.",
    sessionId: "s2",
    category: "core",
    createdAt: AT,
    updatedAt: AT,
  },
  {
    key: "u2",
    content: "Gina: The shop opens at nine.",
    sessionId: "s2",
    category: "core",
    createdAt: AT,
    updatedAt: AT,
  },
];

/**
 * Conversational context (the `context_*` settings): an entry's relevance is raised by its
 * session neighbours (same namespace and session, by creation time, then write order) and by
 * its session's best other match; entries alone keep their own relevance.
 */
export function conversationContextGroup(options: ConformanceOptions): void {
  describe(`${options.name}: conversational context`, {
    timeout: options.timeoutMs ?? 60_000,
  }, () => {
    const instances = useInstances(options);

    const open = async (settings?: Partial<RetrievalSettings>): Promise<Memory> => {
      const memory = await instances.create(undefined, settings);
      if (settings) await expectSettingsApplied(instances);
      const report = await memory.importEntries([...SESSION, ...OTHERS]);
      expect(report.imported).toBe(SESSION.length + OTHERS.length);
      return memory;
    };
    const recallPaint = (memory: Memory, filter: { categories?: string[] } = {}) =>
      memory.recall("paint", { mode: "bm25", limit: 10, minScore: 0, ...filter });

    it("brings in the turn after a match, by write order among equal times, with its lift in explain", async () => {
      const memory = (await open())!;
      const results = await recallPaint(memory);
      const byKey = new Map(results.map((entry) => [entry.key, entry]));
      // t3 holds no query word: only its neighbour t2 can bring it.
      const t3 = byKey.get("t3");
      expect(t3, keys(results).join(",")).toBeDefined();
      expect(t3!.explain!.keywordScore ?? 0).toBe(0);
      expect(t3!.explain!.context).toBeGreaterThan(0);
      expect(t3!.score).toBeCloseTo(t3!.explain!.context!, 10);
      // t2 and u1 gained from nothing: each is the only match of its session, and their
      // neighbours do not match.
      for (const key of ["t2", "u1", "alone"]) {
        const entry = byKey.get(key)!;
        expect(entry.explain!.context, key).toBeUndefined();
        expect(entry.score, key).toBeCloseTo(entry.explain!.keywordRelevance!, 10);
      }
      // Only neighbours of matches come in: t4 (next to t3, not to a match) stays out; u2, next
      // to the match u1, comes in lifted less than its match.
      expect(byKey.has("t4")).toBe(false);
      expect(byKey.get("u2")!.score!).toBeLessThan(byKey.get("u1")!.score!);
      expect(byKey.get("t1")!.explain!.context!).toBeGreaterThan(0);
      for (const entry of results) expect(entry.score!).toBeLessThanOrEqual(1);
    });

    it("finds neighbours among the entries that pass the filter", async () => {
      const memory = (await open())!;
      await memory.store({
        key: "t3",
        content: SESSION[2]!.content,
        category: "daily",
        sessionId: "s1",
      });
      const results = await recallPaint(memory, { categories: ["core"] });
      expect(keys(results)).not.toContain("t3");
      for (const entry of results) expect(entry.category).toBe("core");
    });

    it("is off when both weights are 0: only matches come back", async () => {
      const memory = await open({ contextNeighborWeight: 0, contextSessionWeight: 0 });
      const results = await recallPaint(memory);
      expect(keys(results).sort()).toEqual(["alone", "t2", "u1"]);
      for (const entry of results) expect(entry.explain!.context).toBeUndefined();
    });
  });
}
