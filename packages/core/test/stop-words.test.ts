import { describe, expect, it } from "vitest";
import { ENGLISH_STOP_WORDS, isStopWord } from "../src/algorithms/stop-words.js";

describe("English stop words", () => {
  it("includes articles, pronouns, auxiliaries, prepositions and conjunctions", () => {
    for (const word of ["a", "an", "the", "i", "you", "they", "is", "was", "have", "of", "with"]) {
      expect(isStopWord(word)).toBe(true);
    }
    for (const word of ["and", "but", "or", "because", "would", "should"]) {
      expect(isStopWord(word)).toBe(true);
    }
  });

  it("includes question words", () => {
    for (const word of ["what", "when", "where", "who", "why", "how", "which"]) {
      expect(isStopWord(word)).toBe(true);
    }
  });

  it("includes contraction fragments left by splitting on apostrophes", () => {
    for (const word of ["s", "t", "d", "ll", "re", "ve", "m", "don", "didn", "doesn", "isn"]) {
      expect(isStopWord(word)).toBe(true);
    }
  });

  it("excludes content words, even very common ones", () => {
    const contentWords = ["like", "love", "name", "time", "new", "year", "day", "first", "last"];
    for (const word of [...contentWords, "people", "work", "won", "deploy", "memory"]) {
      expect(isStopWord(word)).toBe(false);
    }
  });

  it("is lower-case only and holds single tokens without apostrophes", () => {
    for (const word of ENGLISH_STOP_WORDS) expect(word).toMatch(/^[a-z]+$/);
    expect(isStopWord("The")).toBe(false);
    expect(isStopWord("don't")).toBe(false);
  });

  it("is about the size of the NLTK and Lucene-style lists", () => {
    expect(ENGLISH_STOP_WORDS.size).toBeGreaterThanOrEqual(150);
    expect(ENGLISH_STOP_WORDS.size).toBeLessThanOrEqual(180);
  });
});
