import { describe, expect, it } from "vitest";
import {
  DEFAULT_KEYWORD_WEIGHT,
  DEFAULT_RRF_K,
  DEFAULT_VECTOR_WEIGHT,
  fuseRrf,
  fuseWeighted,
  keywordOnly,
  keywordRelevance,
  rrfContribution,
  vectorOnly,
} from "../src/index.js";

describe("rrfContribution", () => {
  it("uses k = 60 and 0-based ranks: rank 0 contributes 1/61", () => {
    expect(DEFAULT_RRF_K).toBe(60);
    expect(rrfContribution(0)).toBe(1 / 61);
  });

  it("gives 1/66 at rank 5", () => {
    expect(rrfContribution(5)).toBe(1 / 66);
  });

  it("takes a custom k", () => {
    expect(rrfContribution(0, 10)).toBe(1 / 11);
    expect(rrfContribution(3, 0)).toBe(1 / 4);
  });
});

describe("fuseRrf", () => {
  it("gives fused 1 to an id ranked first in both lists", () => {
    const fused = fuseRrf(
      [
        { id: "a", score: 9 },
        { id: "b", score: 3 },
      ],
      [
        { id: "a", cosine: 0.9 },
        { id: "c", cosine: 0.5 },
      ],
    );
    expect(fused[0]).toEqual({
      id: "a",
      fused: 1,
      keywordRank: 0,
      keywordScore: 9,
      vectorRank: 0,
      cosine: 0.9,
    });
  });

  it("returns the union of ids with each list's rank and normalizes by the best attainable sum", () => {
    const fused = fuseRrf(
      [
        { id: "a", score: 9 },
        { id: "b", score: 3 },
      ],
      [
        { id: "c", cosine: 0.8 },
        { id: "b", cosine: 0.7 },
      ],
    );
    expect(fused.map((c) => c.id).sort()).toEqual(["a", "b", "c"]);
    const best = 2 / 61;
    const b = fused.find((c) => c.id === "b")!;
    expect(b.keywordRank).toBe(1);
    expect(b.vectorRank).toBe(1);
    expect(b.fused).toBeCloseTo(2 / 62 / best, 15);
    const a = fused.find((c) => c.id === "a")!;
    expect(a.fused).toBeCloseTo(0.5, 15);
    expect(a.vectorRank).toBeUndefined();
    const c = fused.find((x) => x.id === "c")!;
    expect(c.keywordRank).toBeUndefined();
    expect(c.cosine).toBe(0.8);
  });

  it("orders by fused score: an id in both lists beats ids in one list", () => {
    const fused = fuseRrf(
      [
        { id: "a", score: 9 },
        { id: "b", score: 3 },
      ],
      [
        { id: "c", cosine: 0.8 },
        { id: "b", cosine: 0.7 },
      ],
    );
    expect(fused.map((c) => c.id)).toEqual(["b", "a", "c"]);
  });

  it("breaks ties by id, whatever order the lists came in", () => {
    const one = fuseRrf([{ id: "zeta", score: 2 }], [{ id: "alpha", cosine: 0.3 }]);
    const two = fuseRrf([{ id: "alpha", score: 2 }], [{ id: "zeta", cosine: 0.3 }]);
    expect(one.map((c) => c.id)).toEqual(["alpha", "zeta"]);
    expect(two.map((c) => c.id)).toEqual(["alpha", "zeta"]);
    expect(one[0]!.fused).toBe(one[1]!.fused);
  });

  it("returns [] when both lists are empty", () => {
    expect(fuseRrf([], [])).toEqual([]);
  });

  it("scores a single non-empty list against that list alone (first place = 1)", () => {
    const fused = fuseRrf(
      [],
      [
        { id: "x", cosine: 0.2 },
        { id: "y", cosine: 0.1 },
      ],
    );
    expect(fused[0]!.fused).toBe(1);
    expect(fused[1]!.fused).toBeCloseTo(61 / 62, 15);
  });

  it("uses the given k", () => {
    const fused = fuseRrf(
      [
        { id: "a", score: 2 },
        { id: "b", score: 1 },
      ],
      [],
      1,
    );
    // rank 1 with k = 1: (1/3) / (1/2)
    expect(fused[1]!.fused).toBeCloseTo(2 / 3, 15);
    const withDefault = fuseRrf(
      [
        { id: "a", score: 2 },
        { id: "b", score: 1 },
      ],
      [],
    );
    expect(withDefault[1]!.fused).toBeCloseTo(61 / 62, 15);
  });

  it("keeps the first rank when an id repeats within one list", () => {
    const fused = fuseRrf(
      [
        { id: "a", score: 5 },
        { id: "a", score: 1 },
      ],
      [],
    );
    expect(fused).toHaveLength(1);
    expect(fused[0]).toMatchObject({ id: "a", keywordRank: 0, keywordScore: 5, fused: 1 });
  });
});

describe("fuseWeighted", () => {
  it("defaults to vector 0.7 and keyword 0.3", () => {
    expect(DEFAULT_VECTOR_WEIGHT).toBe(0.7);
    expect(DEFAULT_KEYWORD_WEIGHT).toBe(0.3);
  });

  it("computes 0.7 * cosine + 0.3 * bm25 / best bm25 in the list", () => {
    const fused = fuseWeighted(
      [
        { id: "a", score: 8 },
        { id: "b", score: 2 },
      ],
      [
        { id: "b", cosine: 0.9 },
        { id: "a", cosine: 0.5 },
      ],
    );
    const a = fused.find((c) => c.id === "a")!;
    const b = fused.find((c) => c.id === "b")!;
    expect(a.fused).toBeCloseTo(0.7 * 0.5 + 0.3 * 1, 12); // 0.65
    expect(b.fused).toBeCloseTo(0.7 * 0.9 + 0.3 * 0.25, 12); // 0.705
    expect(fused.map((c) => c.id)).toEqual(["b", "a"]);
  });

  it("counts a negative cosine as 0 (keeps the raw cosine for explain)", () => {
    const [only] = fuseWeighted([{ id: "a", score: 4 }], [{ id: "a", cosine: -0.6 }]);
    expect(only!.fused).toBeCloseTo(0.3, 12);
    expect(only!.cosine).toBe(-0.6);
  });

  it("gives 0 for the part of a list an id is missing from", () => {
    const fused = fuseWeighted([{ id: "k", score: 3 }], [{ id: "v", cosine: 0.4 }]);
    expect(fused.find((c) => c.id === "k")!.fused).toBeCloseTo(0.3, 12);
    expect(fused.find((c) => c.id === "v")!.fused).toBeCloseTo(0.28, 12);
  });

  it("takes custom weights", () => {
    const [only] = fuseWeighted([{ id: "a", score: 1 }], [{ id: "a", cosine: 0.5 }], {
      vector: 0.5,
      keyword: 0.5,
    });
    expect(only!.fused).toBeCloseTo(0.75, 12);
  });

  it("returns [] for two empty lists and never divides by a zero best score", () => {
    expect(fuseWeighted([], [])).toEqual([]);
    const [only] = fuseWeighted([{ id: "a", score: 0 }], []);
    expect(only!.fused).toBe(0);
  });
});

describe("keywordRelevance", () => {
  it("is raw / (raw + 1)", () => {
    expect(keywordRelevance(1)).toBe(0.5);
    expect(keywordRelevance(3)).toBe(0.75);
    expect(keywordRelevance(0.25)).toBe(0.2);
  });

  it("is 0 for zero, negative or NaN scores", () => {
    expect(keywordRelevance(0)).toBe(0);
    expect(keywordRelevance(-2)).toBe(0);
    expect(keywordRelevance(Number.NaN)).toBe(0);
  });

  it("stays below 1 for any finite score", () => {
    expect(keywordRelevance(1e6)).toBeLessThan(1);
  });
});

describe("keywordOnly", () => {
  it("does not give 1.0 to the top hit of a weak list", () => {
    const ranked = keywordOnly([
      { id: "a", score: 0.2 },
      { id: "b", score: 0.1 },
    ]);
    expect(ranked[0]!.fused).toBeCloseTo(0.2 / 1.2, 15);
    expect(ranked[0]!.fused).toBeLessThan(0.2);
  });

  it("scores the same hit the same whatever else is in the list", () => {
    const alone = keywordOnly([{ id: "a", score: 2 }]);
    const withStronger = keywordOnly([
      { id: "z", score: 50 },
      { id: "a", score: 2 },
    ]);
    expect(withStronger[1]!.fused).toBe(alone[0]!.fused);
    expect(alone[0]!.fused).toBeCloseTo(2 / 3, 15);
  });

  it("keeps BM25 order and records rank and raw score", () => {
    const ranked = keywordOnly([
      { id: "a", score: 4 },
      { id: "b", score: 1 },
    ]);
    expect(ranked).toEqual([
      { id: "a", fused: 0.8, keywordRank: 0, keywordScore: 4 },
      { id: "b", fused: 0.5, keywordRank: 1, keywordScore: 1 },
    ]);
  });
});

describe("vectorOnly", () => {
  it("scores by cosine, negative cosine as 0, in the given order", () => {
    expect(
      vectorOnly([
        { id: "a", cosine: 0.8 },
        { id: "b", cosine: -0.1 },
      ]),
    ).toEqual([
      { id: "a", fused: 0.8, vectorRank: 0, cosine: 0.8 },
      { id: "b", fused: 0, vectorRank: 1, cosine: -0.1 },
    ]);
  });
});
