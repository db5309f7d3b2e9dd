import { describe, expect, it } from "vitest";
import {
  analyzeQuery,
  BM25_B,
  BM25_K1,
  indexedTerms,
  inverseDocumentFrequency,
  KeywordScorer,
  likeRelevance,
  searchTerms,
  vectorRelevance,
} from "../src/index.js";

const STORE = [
  "The user's dog is named Rex",
  "The user works as a nurse in Lyon",
  "The user prefers dark roast coffee",
  "Meeting notes from the quarterly planning",
  "The user is allergic to peanuts",
];

function scorer(query: string, documents = STORE) {
  const terms = searchTerms(analyzeQuery(query));
  const indexed = documents.map((text) => indexedTerms("", text).split(" "));
  const statistics = {
    documents: documents.length,
    averageLength: indexed.reduce((sum, terms) => sum + terms.length, 0) / documents.length,
    documentFrequency: terms.map((term) => indexed.filter((doc) => doc.includes(term.text)).length),
  };
  const keyword = new KeywordScorer(terms, statistics);
  return (text: string) => keyword.relevance(keyword.bm25(indexedTerms("", text)));
}

describe("keyword relevance", () => {
  it("is strong for a near-exact match even in a five-entry store", () => {
    expect(scorer("what is my dog named?")(STORE[0]!)).toBeGreaterThan(0.6);
  });

  it("is weak when a nonsense query shares one word with an entry", () => {
    expect(scorer("quantum chromodynamics lecture notes")(STORE[3]!)).toBeLessThan(0.3);
  });

  it("grows with the share of the query that matches", () => {
    const relevance = scorer("nurse Lyon");
    expect(relevance("a nurse in Lyon")).toBeGreaterThan(relevance("a nurse in Paris"));
    expect(relevance("a nurse in Paris")).toBeGreaterThan(0);
  });

  it("halves a match on stop words only", () => {
    expect(scorer("what is the")("what is the")).toBeLessThan(0.5);
  });

  it("stays below 1", () => {
    expect(scorer("dog")("dog dog dog dog dog")).toBeLessThan(1);
  });
});

describe("vector relevance", () => {
  const calibration = { floor: 0.2, full: 0.8 };
  it("maps cosine linearly between floor and full, clamped", () => {
    expect(vectorRelevance(-0.5, calibration)).toBe(0);
    expect(vectorRelevance(0.2, calibration)).toBe(0);
    expect(vectorRelevance(0.5, calibration)).toBeCloseTo(0.5, 10);
    expect(vectorRelevance(0.95, calibration)).toBe(1);
  });

  it("gives 0 for non-finite cosines", () => {
    expect(vectorRelevance(Number.NaN, calibration)).toBe(0);
    expect(vectorRelevance(Number.POSITIVE_INFINITY, calibration)).toBe(0);
  });
});

describe("LIKE relevance", () => {
  it("is half the share of keywords found", () => {
    expect(likeRelevance(["rror"], "k", "Error code")).toBe(0.5);
    expect(likeRelevance(["rror", "zzz"], "k", "Error code")).toBe(0.25);
    expect(likeRelevance(["zzz"], "k", "Error code")).toBe(0);
  });
});

describe("KeywordScorer.bm25", () => {
  // Okapi BM25 over the split index terms, written out: what the scorer must equal exactly.
  function splitBm25(
    terms: readonly { text: string }[],
    statistics: { documents: number; averageLength: number; documentFrequency: number[] },
    indexed: string,
  ): number {
    const tokens = indexed.split(" ");
    const first = new Map<string, number>();
    terms.forEach((term, index) => {
      if (!first.has(term.text)) first.set(term.text, index);
    });
    const frequencies = terms.map(() => 0);
    for (const token of tokens) {
      const index = first.get(token);
      if (index !== undefined) frequencies[index]!++;
    }
    if (frequencies.every((tf) => tf === 0)) return 0;
    const norm = BM25_K1 * (1 - BM25_B + (BM25_B * tokens.length) / statistics.averageLength);
    let score = 0;
    frequencies.forEach((tf, index) => {
      const idf = inverseDocumentFrequency(
        statistics.documents,
        statistics.documentFrequency[index]!,
      );
      if (tf > 0) score += (idf * tf * (BM25_K1 + 1)) / (tf + norm);
    });
    return score;
  }

  const statistics = { documents: 50, averageLength: 6, documentFrequency: [3, 12, 40] };
  const terms = [
    { text: "cat", prefix: false, stop: false },
    { text: "lake", prefix: false, stop: false },
    { text: "cat", prefix: false, stop: false },
  ];

  it.each([
    "cat",
    "cat lake cat",
    "cats concat cat",
    "bobcat lakes lake",
    "lake cat scat catalog cat",
    "dog fish",
    "catlake lakecat",
  ])("counts whole index terms only, as splitting them would: %j", (indexed) => {
    const scorer = new KeywordScorer(terms, statistics);
    expect(scorer.bm25(indexed)).toBe(splitBm25(terms, statistics, indexed));
  });

  it("scores partial tokens nothing and repeated terms once", () => {
    const scorer = new KeywordScorer(terms, statistics);
    expect(scorer.bm25("cats concat bobcat")).toBe(0);
    expect(scorer.bm25("cat lake cat")).toBeGreaterThan(scorer.bm25("cat lake"));
  });
});
