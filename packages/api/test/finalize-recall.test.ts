import { describe, expect, it } from "vitest";
import {
  type FusedCandidate,
  finalizeRecall,
  type MemoryEntry,
  type RankableEntry,
} from "../src/index.js";

const NOW = Date.parse("2026-03-15T12:00:00.000Z");
const DAY = 86_400_000;

function item(
  key: string,
  fused: number,
  options: Partial<MemoryEntry> & { ageDays?: number; candidate?: Partial<FusedCandidate> } = {},
): RankableEntry {
  const { ageDays = 0, candidate, ...entry } = options;
  const stamp = new Date(NOW - ageDays * DAY).toISOString();
  return {
    entry: {
      id: `id-${key}`,
      key,
      content: `content of ${key}`,
      category: "daily",
      namespace: "default",
      createdAt: stamp,
      updatedAt: stamp,
      ...entry,
    },
    candidate: { id: `id-${key}`, fused, ...candidate },
  };
}

const base = { mode: "hybrid", source: "hybrid", limit: 10, now: NOW } as const;

describe("finalizeRecall", () => {
  it("applies decay to non-core entries only", () => {
    const results = finalizeRecall(
      [
        item("old-daily", 0.8, { ageDays: 7 }),
        item("old-core", 0.8, { ageDays: 700, category: "core" }),
      ],
      base,
    );
    const daily = results.find((r) => r.key === "old-daily")!;
    const core = results.find((r) => r.key === "old-core")!;
    expect(daily.score).toBe(0.4);
    expect(daily.explain!.decay).toBe(0.5);
    expect(core.score).toBe(0.8);
    expect(core.explain!.decay).toBe(1);
  });

  it("re-sorts by decayed score", () => {
    const results = finalizeRecall(
      [item("stale", 0.9, { ageDays: 14 }), item("fresh", 0.5, { ageDays: 0 })],
      base,
    );
    expect(results.map((r) => [r.key, r.score])).toEqual([
      ["fresh", 0.5],
      ["stale", 0.225],
    ]);
  });

  it("breaks equal scores by most recently updated", () => {
    const results = finalizeRecall(
      [
        item("older", 0.5, { category: "core", ageDays: 3 }),
        item("newer", 0.5, { category: "core", ageDays: 1 }),
      ],
      base,
    );
    expect(results.map((r) => r.key)).toEqual(["newer", "older"]);
  });

  it("uses a custom half-life", () => {
    const [result] = finalizeRecall([item("a", 1, { ageDays: 30 })], { ...base, halfLifeDays: 30 });
    expect(result!.score).toBe(0.5);
  });

  it("drops superseded entries unless includeSuperseded", () => {
    const items = [item("live", 0.5), item("old-fact", 0.9, { supersededBy: "live" })];
    expect(finalizeRecall(items, base).map((r) => r.key)).toEqual(["live"]);
    const all = finalizeRecall(items, { ...base, includeSuperseded: true });
    expect(all.map((r) => r.key)).toEqual(["old-fact", "live"]);
    expect(all[0]!.supersededBy).toBe("live");
  });

  it("applies minScore after decay", () => {
    const items = [item("week-old", 0.8, { ageDays: 7 }), item("new", 0.45)];
    // 0.8 passes minScore 0.5 before decay but is 0.4 after
    expect(finalizeRecall(items, { ...base, minScore: 0.5 })).toEqual([]);
    expect(finalizeRecall(items, { ...base, minScore: 0.4 }).map((r) => r.key)).toEqual([
      "new",
      "week-old",
    ]);
  });

  it("returns [] for limit 0 (and negative limits)", () => {
    expect(finalizeRecall([item("a", 1)], { ...base, limit: 0 })).toEqual([]);
    expect(finalizeRecall([item("a", 1)], { ...base, limit: -1 })).toEqual([]);
  });

  it("applies the limit after filtering and sorting", () => {
    const items = [
      item("s1", 0.99, { supersededBy: "x" }),
      item("a", 0.3),
      item("b", 0.9),
      item("c", 0.6),
    ];
    expect(finalizeRecall(items, { ...base, limit: 2 }).map((r) => r.key)).toEqual(["b", "c"]);
  });

  it("populates explain with the parts of the score", () => {
    const [result] = finalizeRecall(
      [
        item("a", 0.75, {
          importance: 0.9,
          ageDays: 7,
          candidate: { keywordRank: 2, keywordScore: 3.5, vectorRank: 0, cosine: 0.82 },
        }),
      ],
      { ...base, strategy: "rrf", earlyReturn: true, degraded: "no embedding provider" },
    );
    expect(result!.explain).toEqual({
      mode: "hybrid",
      source: "hybrid",
      strategy: "rrf",
      fused: 0.75,
      decay: 0.5,
      keywordRank: 2,
      keywordScore: 3.5,
      vectorRank: 0,
      cosine: 0.82,
      importance: 0.9,
      earlyReturn: true,
      degraded: "no embedding provider",
    });
    expect(result!.score).toBe(0.375);
  });

  it("leaves absent parts out of explain", () => {
    const [result] = finalizeRecall(
      [item("a", 0.5, { candidate: { keywordRank: 0, keywordScore: 1 } })],
      {
        mode: "bm25",
        source: "keyword",
        limit: 1,
        now: NOW,
      },
    );
    expect(result!.explain).toEqual({
      mode: "bm25",
      source: "keyword",
      fused: 0.5,
      decay: 1,
      keywordRank: 0,
      keywordScore: 1,
    });
  });

  it("does not mutate the input entries", () => {
    const items = [item("a", 0.5)];
    finalizeRecall(items, base);
    expect(items[0]!.entry.score).toBeUndefined();
    expect(items[0]!.entry.explain).toBeUndefined();
  });

  it("does not boost entries from the future", () => {
    const [result] = finalizeRecall([item("future", 0.6, { ageDays: -2 })], base);
    expect(result!.score).toBe(0.6);
  });
});
