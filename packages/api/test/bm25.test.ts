import { describe, expect, it } from "vitest";
import { type Bm25Document, bm25Search, indexTokens } from "../src/index.js";

function corpus(texts: Record<string, string>): Bm25Document[] {
  return Object.entries(texts).map(([id, text]) => ({ id, tokens: indexTokens(text) }));
}

describe("indexTokens", () => {
  it("lower-cases words and folds full-width characters", () => {
    expect(indexTokens("Hello, ＷＯＲＬＤ!")).toEqual(["hello", "world"]);
  });

  it("indexes CJK runs as bigrams, once each", () => {
    expect(indexTokens("記憶力")).toEqual(["記憶", "憶力"]);
    expect(indexTokens("記憶")).toEqual(["記憶"]);
  });

  it("splits mixed Latin/CJK words the same way queries do", () => {
    expect(indexTokens("ai記憶 test")).toEqual(["ai", "記憶", "test"]);
  });

  it("keeps repeats (term frequency)", () => {
    expect(indexTokens("tea tea")).toEqual(["tea", "tea"]);
  });
});

describe("bm25Search", () => {
  const docs = corpus({
    a: "the cat sat on the mat",
    b: "the dog sat on the log",
    c: "the cat chased the dog",
    d: "a zebra at the zoo",
    e: "the bird sang",
  });

  it("ranks a document with a rare term above one with only a common term", () => {
    const hits = bm25Search(docs, "zebra the");
    expect(hits[0]!.id).toBe("d");
    expect(hits[0]!.score).toBeGreaterThan(hits[1]!.score * 10);
  });

  it("gives a term found in most documents only the 1e-6 idf floor", () => {
    const hits = bm25Search(docs, "the");
    expect(hits).toHaveLength(5);
    for (const hit of hits) {
      expect(hit.score).toBeGreaterThan(0);
      expect(hit.score).toBeLessThan(1e-5);
    }
  });

  it("ranks by how many query terms match", () => {
    const hits = bm25Search(docs, "cat dog");
    expect(hits[0]!.id).toBe("c");
    expect(hits.map((h) => h.id).sort()).toEqual(["a", "b", "c"]);
  });

  it("matches prefix terms against the start of tokens only", () => {
    const prefixDocs = corpus({ w: "wildlife photos", u: "unwilding the garden", x: "tame cats" });
    expect(bm25Search(prefixDocs, "wild*").map((h) => h.id)).toEqual(["w"]);
    expect(bm25Search(prefixDocs, "wild")).toEqual([]);
  });

  it("finds a CJK word inside a sentence through bigrams", () => {
    const cjkDocs = corpus({
      ja: "私は記憶力が良い",
      zh: "今天天气很好",
      en: "memory is good",
    });
    expect(bm25Search(cjkDocs, "記憶").map((h) => h.id)).toEqual(["ja"]);
    expect(bm25Search(cjkDocs, "記憶力").map((h) => h.id)).toEqual(["ja"]);
  });

  it("finds the Latin part of a mixed Latin/CJK word", () => {
    const mixed = corpus({ m: "ai記憶 research", o: "other things" });
    expect(bm25Search(mixed, "ai").map((h) => h.id)).toEqual(["m"]);
  });

  it("returns [] when nothing matches, for empty queries and for no documents", () => {
    expect(bm25Search(docs, "quantum")).toEqual([]);
    expect(bm25Search(docs, "")).toEqual([]);
    expect(bm25Search(docs, '"*"')).toEqual([]);
    expect(bm25Search([], "cat")).toEqual([]);
  });

  it("accepts pre-extracted terms", () => {
    expect(bm25Search(docs, [{ text: "zeb", prefix: true }]).map((h) => h.id)).toEqual(["d"]);
  });

  it("prefers the shorter document at equal term frequency (length normalization)", () => {
    const lengthDocs = corpus({
      short: "coffee beans",
      long: "coffee and a very long description of many unrelated things here",
      none1: "tea",
      none2: "water",
    });
    const hits = bm25Search(lengthDocs, "coffee");
    expect(hits.map((h) => h.id)).toEqual(["short", "long"]);
    expect(hits[0]!.score).toBeGreaterThan(hits[1]!.score);
  });

  it("breaks equal scores by id", () => {
    const twins = corpus({ b: "same words", a: "same words", c: "other", d: "more" });
    expect(bm25Search(twins, "same").map((h) => h.id)).toEqual(["a", "b"]);
  });

  it("computes the Okapi score with k1 = 1.2, b = 0.75", () => {
    // 4 docs, term in 1: idf = ln(3.5 / 1.5); doc length = average length -> tf part = 2.2 / 2.2
    const exact = corpus({ x: "alpha", y: "beta", z: "gamma", w: "delta" });
    const [hit] = bm25Search(exact, "alpha");
    expect(hit!.score).toBeCloseTo(Math.log(3.5 / 1.5), 12);
  });
});
