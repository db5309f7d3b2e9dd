import { describe, expect, it } from "vitest";
import {
  CONTRADICTION_FACTOR,
  CONTRADICTION_WEIGHTS,
  contradictionSignals,
  DEFAULT_CONFLICT_THRESHOLD,
  detectConflict,
  jaccardSimilarity,
  wordSet,
} from "../src/index.js";

describe("jaccardSimilarity", () => {
  it("is |A ∩ B| / |A ∪ B| of lower-cased word sets", () => {
    expect(jaccardSimilarity("I like coffee", "I like tea")).toBe(0.5);
    expect(jaccardSimilarity("The Cat", "the cat")).toBe(1);
    expect(jaccardSimilarity("a b c d", "a")).toBe(0.25);
  });

  it("ignores punctuation and repeats", () => {
    expect(jaccardSimilarity("coffee, coffee!", "coffee")).toBe(1);
  });

  it("is 0 for disjoint texts and for texts without words (not NaN)", () => {
    expect(jaccardSimilarity("alpha", "beta")).toBe(0);
    expect(jaccardSimilarity("", "")).toBe(0);
    expect(jaccardSimilarity("!!!", "alpha")).toBe(0);
  });

  it("handles non-Latin letters", () => {
    expect(wordSet("Café ÜBER straße")).toEqual(new Set(["café", "über", "straße"]));
  });
});

describe("contradictionSignals", () => {
  it("uses the weights of the design", () => {
    expect(CONTRADICTION_WEIGHTS).toEqual({
      negationReversal: 0.4,
      preferenceChange: 0.3,
      temporalShift: 0.3,
    });
    expect(CONTRADICTION_FACTOR).toBe(0.3);
    expect(DEFAULT_CONFLICT_THRESHOLD).toBe(0.6);
  });

  it("fires all three for `I like coffee` -> `I no longer like coffee, I prefer tea now`", () => {
    const signals = contradictionSignals(
      "I like coffee",
      "I no longer like coffee, I prefer tea now",
    );
    expect(signals.negationReversal).toBe(0.4);
    expect(signals.preferenceChange).toBe(0.3);
    expect(signals.temporalShift).toBe(0.3);
    expect(signals.total).toBe(1);
  });

  it("counts a negation reversal when Jaccard > 0.3", () => {
    // {the, server, runs, on, port, 8080} vs + {not}: 6/7
    const signals = contradictionSignals(
      "The server runs on port 8080",
      "The server does not run on port 8080",
    );
    expect(
      jaccardSimilarity("The server runs on port 8080", "The server does not run on port 8080"),
    ).toBeGreaterThan(0.3);
    expect(signals.negationReversal).toBe(0.4);
  });

  it("ignores a negation reversal when Jaccard <= 0.3", () => {
    const older = "Deploys happen on Tuesday mornings";
    const newer = "I do not eat meat";
    expect(jaccardSimilarity(older, newer)).toBeLessThanOrEqual(0.3);
    expect(contradictionSignals(older, newer).negationReversal).toBe(0);
  });

  it("needs exactly one side to negate", () => {
    expect(contradictionSignals("I do not like cats", "I do not like dogs").negationReversal).toBe(
      0,
    );
    expect(contradictionSignals("I like cats", "I like dogs").negationReversal).toBe(0);
  });

  it("recognizes contractions at the start, before punctuation and with curly apostrophes", () => {
    expect(
      contradictionSignals("Use tabs for indentation", "Don't use tabs for indentation")
        .negationReversal,
    ).toBe(0.4);
    expect(contradictionSignals("The user can swim", "The user can't.").negationReversal).toBe(0.4);
    expect(contradictionSignals("Tom eats fish", "Tom doesn’t eat fish").negationReversal).toBe(
      0.4,
    );
    expect(
      contradictionSignals("The config has changed", "Nothing's changed in the config")
        .negationReversal,
    ).toBe(0.4);
  });

  it("does not read `no` inside other words as a negation", () => {
    expect(
      contradictionSignals("The node is up", "The node is up now, nominally").negationReversal,
    ).toBe(0);
  });

  it("counts a preference change of 0.3 when both texts state different preferences", () => {
    const signals = contradictionSignals("I love jazz", "My favorite music is metal");
    expect(signals.preferenceChange).toBe(0.3);
    expect(signals.negationReversal).toBe(0);
    expect(signals.temporalShift).toBe(0);
    expect(signals.total).toBe(0.3);
  });

  it("needs a preference on both sides", () => {
    expect(
      contradictionSignals("The office is in Berlin", "I prefer Munich").preferenceChange,
    ).toBe(0);
  });

  it("counts a temporal shift of 0.3 only when Jaccard > 0.2 and only the newer text is temporal", () => {
    const older = "The team uses Jenkins for builds";
    const newer = "The team switched to GitHub Actions for builds";
    expect(jaccardSimilarity(older, newer)).toBeGreaterThan(0.2);
    expect(contradictionSignals(older, newer).temporalShift).toBe(0.3);
    // Reversed: the older text is the temporal one
    expect(contradictionSignals(newer, older).temporalShift).toBe(0);
  });

  it("ignores a temporal shift between unrelated texts", () => {
    const older = "Lunch is at noon";
    const newer = "The API moved to version 3";
    expect(jaccardSimilarity(older, newer)).toBeLessThanOrEqual(0.2);
    expect(contradictionSignals(older, newer).temporalShift).toBe(0);
  });

  it("fires nothing for the same text (ignoring case and outer space)", () => {
    const signals = contradictionSignals("I like coffee now", "  i like COFFEE now ");
    expect(signals).toEqual({
      negationReversal: 0,
      preferenceChange: 0,
      temporalShift: 0,
      total: 0,
    });
  });
});

describe("detectConflict", () => {
  it("flags `I like coffee` -> `I no longer like coffee, I prefer tea now` with score J + 0.3", () => {
    const result = detectConflict({
      older: "I like coffee",
      newer: "I no longer like coffee, I prefer tea now",
    });
    expect(result.similarity).toBe(3 / 8);
    expect(result.score).toBeCloseTo(3 / 8 + 0.3, 15);
    expect(result.conflict).toBe(true);
  });

  it("computes score = similarity + 0.3 * total", () => {
    const result = detectConflict({ older: "I love jazz", newer: "My favorite music is metal" });
    expect(result.signals.total).toBe(0.3);
    expect(result.score).toBeCloseTo(result.similarity + 0.09, 15);
    expect(result.conflict).toBe(false);
  });

  it("does not flag unrelated facts", () => {
    const result = detectConflict({
      older: "The user lives in Lisbon",
      newer: "The build uses pnpm",
    });
    expect(result.conflict).toBe(false);
    expect(result.score).toBeLessThan(0.6);
  });

  it("flags only strictly above the threshold", () => {
    // J = 0.6 exactly: {a b c} vs {a b c d e}; no signals
    const at = detectConflict({
      older: "alpha beta gamma",
      newer: "alpha beta gamma delta epsilon",
    });
    expect(at.similarity).toBe(0.6);
    expect(at.score).toBe(0.6);
    expect(at.conflict).toBe(false);
    const lower = detectConflict({
      older: "alpha beta gamma",
      newer: "alpha beta gamma delta epsilon",
      threshold: 0.59,
    });
    expect(lower.conflict).toBe(true);
  });

  it("never flags identical content", () => {
    const result = detectConflict({ older: "Use tabs", newer: "  Use tabs  ", threshold: 0 });
    expect(result.similarity).toBe(1);
    expect(result.conflict).toBe(false);
  });

  it("combined mode = 0.4 Jaccard + 0.4 cosine + 0.2 BM25 overlap", () => {
    const result = detectConflict({
      older: "I like coffee",
      newer: "I like tea",
      mode: "combined",
      cosine: 0.9,
      bm25Overlap: 0.5,
    });
    expect(result.similarity).toBeCloseTo(0.4 * 0.5 + 0.4 * 0.9 + 0.2 * 0.5, 15); // 0.66
    // preference change fires: + 0.3 * 0.3
    expect(result.score).toBeCloseTo(0.66 + 0.09, 12);
    expect(result.conflict).toBe(true);
  });

  it("combined mode clamps negative cosine to 0 and bm25 overlap to 0..1, missing overlap = 0", () => {
    const a = detectConflict({
      older: "a b",
      newer: "a c",
      mode: "combined",
      cosine: -1,
      bm25Overlap: 7,
    });
    expect(a.similarity).toBeCloseTo(0.4 * (1 / 3) + 0 + 0.2, 15);
    const b = detectConflict({ older: "a b", newer: "a c", mode: "combined", cosine: 1 });
    expect(b.similarity).toBeCloseTo(0.4 * (1 / 3) + 0.4, 15);
  });

  it("combined mode falls back to Jaccard when the cosine is unknown", () => {
    const result = detectConflict({
      older: "I like coffee",
      newer: "I like tea",
      mode: "combined",
      bm25Overlap: 1,
    });
    expect(result.similarity).toBe(0.5);
  });

  it("jaccard mode ignores cosine and BM25 overlap", () => {
    const result = detectConflict({
      older: "I like coffee",
      newer: "I like tea",
      mode: "jaccard",
      cosine: 1,
      bm25Overlap: 1,
    });
    expect(result.similarity).toBe(0.5);
  });

  it("lets a low cosine in combined mode spare a different fact that shares most words", () => {
    const older = "I like the red car";
    const newer = "I like the red wine";
    expect(detectConflict({ older, newer }).conflict).toBe(true);
    const combined = detectConflict({
      older,
      newer,
      mode: "combined",
      cosine: 0.3,
      bm25Overlap: 0.3,
    });
    expect(combined.similarity).toBeCloseTo(0.4 * (4 / 6) + 0.12 + 0.06, 12);
    expect(combined.conflict).toBe(false);
  });
});
