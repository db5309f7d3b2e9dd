import { describe, expect, it } from "vitest";
import {
  analyzeQuery,
  cjkBigrams,
  cjkIndexText,
  escapeLike,
  hasCjk,
  isMatchAllQuery,
  likeFallbackKeywords,
} from "../src/index.js";

describe("isMatchAllQuery", () => {
  it("is true for empty, whitespace and bare stars", () => {
    for (const query of ["", "  ", "\t\n", "*", "**", " * "])
      expect(isMatchAllQuery(query)).toBe(true);
  });

  it("is false for real queries", () => {
    for (const query of ["a", "wild*", "* *", "a*"]) expect(isMatchAllQuery(query)).toBe(false);
  });
});

describe("CJK helpers", () => {
  it("hasCjk detects Han, kana and Hangul only", () => {
    expect(hasCjk("記")).toBe(true);
    expect(hasCjk("ひらがな")).toBe(true);
    expect(hasCjk("한")).toBe(true);
    expect(hasCjk("hello café")).toBe(false);
  });

  it("cjkBigrams gives overlapping pairs; one character gives itself", () => {
    expect(cjkBigrams("記憶力")).toEqual(["記憶", "憶力"]);
    expect(cjkBigrams("猫")).toEqual(["猫"]);
    expect(cjkBigrams("")).toEqual([]);
  });

  it("cjkBigrams keeps astral characters whole", () => {
    expect(cjkBigrams("𠮷野家")).toEqual(["𠮷野", "野家"]);
  });

  it("cjkIndexText makes `記憶` findable inside `私は記憶力が良い`", () => {
    const text = cjkIndexText("私は記憶力が良い");
    expect(text.split(" ")).toContain("記憶");
    expect(text).toBe("私は は記 記憶 憶力 力が が良 良い");
  });

  it("cjkIndexText indexes every CJK run and nothing else", () => {
    expect(cjkIndexText("ai記憶 and 検索")).toBe("記憶 検索");
    expect(cjkIndexText("no cjk here")).toBe("");
  });

  it("every query bigram of a CJK word appears in the index text of a sentence containing it", () => {
    const index = new Set(cjkIndexText("私は記憶力が良い").split(" "));
    for (const term of analyzeQuery("記憶力")) expect(index.has(term.text)).toBe(true);
  });
});

describe("escapeLike", () => {
  it("escapes %, _ and the backslash escape character", () => {
    expect(escapeLike("100%")).toBe("100\\%");
    expect(escapeLike("snake_case")).toBe("snake\\_case");
    expect(escapeLike("a\\b")).toBe("a\\\\b");
    expect(escapeLike("%_\\")).toBe("\\%\\_\\\\");
  });

  it("leaves other text alone", () => {
    expect(escapeLike("plain [text] 'quoted' *")).toBe("plain [text] 'quoted' *");
  });
});

describe("likeFallbackKeywords", () => {
  it("keeps at most 8 keywords, longest first", () => {
    const words = likeFallbackKeywords(
      "alpha bravo charlie delta echo foxtrot golf hotel india juliett kilo",
    );
    expect(words).toHaveLength(8);
    // Equal lengths keep query order: charlie, foxtrot, juliett (7) come first.
    expect(words.slice(0, 3)).toEqual(["charlie", "foxtrot", "juliett"]);
    expect(words).not.toContain("echo");
    expect(words.every((w, i) => i === 0 || words[i - 1]!.length >= w.length)).toBe(true);
  });

  it("takes a custom maximum", () => {
    expect(likeFallbackKeywords("alpha bravo charlie", 2)).toEqual(["charlie", "alpha"]);
  });

  it("drops one-letter words and duplicates, lower-cases", () => {
    expect(likeFallbackKeywords("a I Coffee coffee x")).toEqual(["coffee"]);
  });

  it("keeps single CJK characters and underscores", () => {
    expect(likeFallbackKeywords("猫 snake_case")).toEqual(["snake_case", "猫"]);
  });

  it("returns no syntax characters", () => {
    expect(likeFallbackKeywords("100% '; DROP --")).toEqual(["drop", "100"]);
  });
});
