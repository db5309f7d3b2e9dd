import { describe, expect, it } from "vitest";
import {
  analyzeQuery,
  analyzeText,
  indexedTerms,
  MAX_INDEXED_TERMS_LENGTH,
  searchTerms,
  termMatches,
} from "../src/index.js";

describe("analyzeText", () => {
  it("lower-cases, stems English words and keeps repeats", () => {
    expect(analyzeText("Meetings about MEETING plans")).toEqual(["meet", "about", "meet", "plan"]);
  });

  it("folds composed, decomposed and heavily marked spellings to one term", () => {
    const composed = "caf\u00e9";
    const decomposed = "cafe\u0301";
    const marked = "c\u0327a\u0300f\u0308e\u0301\u0323";
    expect(analyzeText(composed)).toEqual(["cafe"]);
    expect(analyzeText(decomposed)).toEqual(["cafe"]);
    expect(analyzeText(marked)).toEqual(["cafe"]);
  });

  it("cuts CJK runs into bigrams, also inside mixed words", () => {
    expect(analyzeText("私は記憶力")).toEqual(["私は", "は記", "記憶", "憶力"]);
    expect(analyzeText("ai記憶")).toEqual(["ai", "記憶"]);
  });

  it("treats query syntax and underscores as separators", () => {
    expect(analyzeText('a"b* c:d NEAR(e) f_g')).toEqual([
      "a",
      "b",
      "c",
      "d",
      "near",
      "e",
      "f",
      "g",
    ]);
  });

  it("cuts huge texts at a term boundary below the shared limit", () => {
    const text = indexedTerms("k", "word ".repeat(100_000));
    expect(text.length).toBeLessThanOrEqual(MAX_INDEXED_TERMS_LENGTH);
    expect(text.endsWith(" word")).toBe(true);
  });
});

describe("analyzeQuery", () => {
  it("marks stop words and drops them unless nothing else is left", () => {
    const terms = analyzeQuery("What is the name of my dog?");
    expect(terms.filter((term) => term.stop).map((term) => term.text)).toEqual([
      "what",
      "is",
      "the",
      "of",
      "my",
    ]);
    expect(searchTerms(terms).map((term) => term.text)).toEqual(["name", "dog"]);
    expect(searchTerms(analyzeQuery("what is it")).map((term) => term.text)).toEqual([
      "what",
      "is",
      "it",
    ]);
  });

  it("keeps a trailing star as an unstemmed prefix term that also matches the word's stem", () => {
    expect(analyzeQuery("wildlife* running wild*")).toEqual([
      { text: "wildlife", prefix: true, stem: "wildlif", stop: false },
      { text: "run", prefix: false, stop: false },
      { text: "wild", prefix: true, stop: false },
    ]);
  });

  it("matches a prefix term against stems the stemmer shortened, not other words", () => {
    const matches = (query: string, word: string) =>
      analyzeText(word).every((indexed) =>
        analyzeQuery(query).some((term) => termMatches(indexed, term)),
      );
    expect(matches("zephyrine*", "zephyrine")).toBe(true);
    expect(matches("beacons*", "beacon")).toBe(true);
    expect(matches("happy*", "happiness")).toBe(true);
    expect(matches("wildlife*", "wildlife")).toBe(true);
    expect(matches("zephyr*", "zephyrines")).toBe(true);
    expect(matches("studies*", "studio")).toBe(false);
    expect(matches("happy*", "happen")).toBe(false);
    expect(matches("wild*", "unwilding")).toBe(false);
    expect(analyzeQuery("wildlife*", "none")).toEqual([
      { text: "wildlife", prefix: true, stop: false },
    ]);
  });

  it("stems query words like index words", () => {
    const indexed = new Set(analyzeText("The user went running with the dogs"));
    for (const term of searchTerms(analyzeQuery("runs dog")))
      expect(indexed.has(term.text)).toBe(true);
  });
});

describe("analyzeText fast path", () => {
  it("gives ASCII text the same terms as the general path", () => {
    const ascii = "The USER's dog_name: Rex-2019, running fast!! x".repeat(3);
    // A non-ASCII character at the end sends the text down the general path.
    const general = analyzeText(`${ascii} é`);
    expect(analyzeText(ascii)).toEqual(general.slice(0, -1));
    expect(general.at(-1)).toBe("e");
  });
});

describe("text language none", () => {
  it("keeps words as typed (folded only), CJK bigrams unchanged, no stop words", () => {
    expect(analyzeText("Running Meetings café 記憶力", "none")).toEqual([
      "running",
      "meetings",
      "cafe",
      "記憶",
      "憶力",
    ]);
    expect(analyzeText("Running meetings", "english")).toEqual(["run", "meet"]);
    expect(analyzeQuery("what is the Meeting", "none")).toEqual([
      { text: "what", prefix: false, stop: false },
      { text: "is", prefix: false, stop: false },
      { text: "the", prefix: false, stop: false },
      { text: "meeting", prefix: false, stop: false },
    ]);
    expect(indexedTerms("Key-One", "Dogs ran", "none")).toBe("key one dogs ran");
  });
});
