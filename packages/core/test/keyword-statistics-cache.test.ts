import type { KeywordStatistics, QueryTerm } from "@memory/api";
import { describe, expect, it } from "vitest";
import {
  cachedStatistics,
  KeywordStatisticsCache,
  type StatisticsCorrection,
} from "../src/index.js";

const term = (text: string, prefix = false, stem?: string): QueryTerm => ({
  text,
  prefix,
  stop: false,
  ...(stem !== undefined ? { stem } : {}),
});

/** A backend's counting query over a fixed store, recording which terms it was asked for. */
function counter(frequencies: Record<string, number>, documents = 100) {
  const asked: string[][] = [];
  const count = (terms: readonly QueryTerm[]): KeywordStatistics => {
    asked.push(terms.map((t) => t.text));
    return {
      documents,
      averageLength: 7,
      documentFrequency: terms.map((t) => frequencies[t.text] ?? 0),
    };
  };
  return { asked, count };
}

describe("KeywordStatisticsCache", () => {
  it("counts a term once while the change token stays the same", async () => {
    const cache = new KeywordStatisticsCache();
    const { asked, count } = counter({ camp: 40, lake: 3 });
    const terms = [term("camp"), term("lake")];
    const first = await cachedStatistics(cache, 1, "ns", terms, count);
    const second = await cachedStatistics(cache, 1, "ns", terms, count);
    expect(second).toEqual(first);
    expect(second).toEqual({ documents: 100, averageLength: 7, documentFrequency: [40, 3] });
    expect(asked).toEqual([["camp", "lake"]]);
  });

  it("counts only the terms it lacks, and merges them in query order", async () => {
    const cache = new KeywordStatisticsCache();
    const { asked, count } = counter({ camp: 40, lake: 3, tent: 9 });
    await cachedStatistics(cache, 1, "ns", [term("lake")], count);
    const merged = await cachedStatistics(
      cache,
      1,
      "ns",
      [term("camp"), term("lake"), term("tent")],
      count,
    );
    expect(merged.documentFrequency).toEqual([40, 3, 9]);
    expect(asked).toEqual([["lake"], ["camp", "tent"]]);
  });

  it("counts again after the token changes, and never caches without a token", async () => {
    const cache = new KeywordStatisticsCache();
    const { asked, count } = counter({ camp: 40 });
    await cachedStatistics(cache, 1, "ns", [term("camp")], count);
    await cachedStatistics(cache, 2, "ns", [term("camp")], count);
    await cachedStatistics(cache, undefined, "ns", [term("camp")], count);
    await cachedStatistics(cache, undefined, "ns", [term("camp")], count);
    expect(asked).toHaveLength(4);
  });

  it("keeps namespaces apart and tells a prefix term from the exact one", async () => {
    const cache = new KeywordStatisticsCache();
    const a = counter({ camp: 40 });
    const b = counter({ camp: 2 });
    await cachedStatistics(cache, 1, "a", [term("camp")], a.count);
    expect(
      (await cachedStatistics(cache, 1, "b", [term("camp")], b.count)).documentFrequency,
    ).toEqual([2]);
    await cachedStatistics(cache, 1, "a", [term("camp", true, "camp")], a.count);
    expect(a.asked).toEqual([["camp"], ["camp"]]);
  });

  it("starts over past its bound of terms", async () => {
    const cache = new KeywordStatisticsCache(2);
    const { asked, count } = counter({});
    await cachedStatistics(cache, 1, "ns", [term("a"), term("b")], count);
    await cachedStatistics(cache, 1, "ns", [term("c")], count);
    await cachedStatistics(cache, 1, "ns", [term("a")], count);
    expect(asked).toEqual([["a", "b"], ["c"], ["a"]]);
  });

  it("follows corrections to a new token: exact terms move, prefix terms and dropped namespaces are counted again", async () => {
    const cache = new KeywordStatisticsCache();
    const a = counter({ camp: 40, lake: 3 });
    const b = counter({ camp: 2 });
    const exact = [term("camp"), term("lake")];
    const prefixed = [term("cam", true, "cam")];
    await cachedStatistics(cache, 1, "a", [...exact, ...prefixed], a.count);
    await cachedStatistics(cache, 1, "b", [term("camp")], b.count);
    await cachedStatistics(cache, 1, "c", [term("camp")], b.count);
    const corrections = new Map<string, StatisticsCorrection | null>([
      ["a", { documents: 101, averageLength: 8, frequencyChange: new Map([["lake", 1]]) }],
      ["c", null],
    ]);
    cache.follow(1, 2, corrections.keys(), (namespace) => corrections.get(namespace) ?? null);
    const moved = await cachedStatistics(cache, 2, "a", exact, a.count);
    expect(moved).toEqual({ documents: 101, averageLength: 8, documentFrequency: [40, 4] });
    expect(
      (await cachedStatistics(cache, 2, "b", [term("camp")], b.count)).documentFrequency,
    ).toEqual([2]);
    expect(a.asked).toEqual([["camp", "lake", "cam"]]);
    expect(b.asked).toEqual([["camp"], ["camp"]]);
    await cachedStatistics(cache, 2, "a", prefixed, a.count);
    await cachedStatistics(cache, 2, "c", [term("camp")], b.count);
    expect(a.asked).toEqual([["camp", "lake", "cam"], ["cam"]]);
    expect(b.asked).toHaveLength(3);
    // Kept under another token than `from`: nothing moves, the next token counts afresh.
    cache.follow(1, 3, [], () => null);
    await cachedStatistics(cache, 3, "a", exact, a.count);
    expect(a.asked).toHaveLength(3);
  });
});
