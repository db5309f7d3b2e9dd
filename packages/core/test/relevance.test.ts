import { describe, expect, it } from "vitest";
import {
  analyzeQuery,
  indexedTerms,
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
