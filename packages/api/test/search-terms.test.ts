import { describe, expect, it } from "vitest";
import {
  buildFts5Query,
  cjkBigrams,
  cjkIndexText,
  escapeLike,
  extractSearchTerms,
  hasCjk,
  isMatchAllQuery,
  likeFallbackKeywords,
  MAX_QUERY_TERMS,
} from "../src/index.js";

/** Only quoted strings (with "" escapes), an optional prefix star, joined by OR / AND. */
const SAFE_FTS5 = /^"([^"]|"")*"\*?( (OR|AND) "([^"]|"")*"\*?)*$/;

const HOSTILE = [
  '"',
  '""',
  '"""',
  'say "hello"',
  "*",
  "**",
  "a*b*",
  "*prefix",
  "NEAR(a b)",
  "NEAR(a b, 3)",
  "a OR b",
  "a AND b",
  "a NOT b",
  "AND",
  "OR",
  "NOT",
  "-x",
  "--x",
  "+x",
  "col:val",
  "content:secret",
  "{content key}:x",
  "^start",
  "(",
  ")",
  "(a OR b) AND c",
  "[a]",
  "'",
  "'; DROP TABLE memories; --",
  "1' OR '1'='1",
  '"; DELETE FROM memories_fts WHERE 1; --',
  "a\\b",
  "%_%",
  "emoji 😀🎉 test",
  "👨‍👩‍👧",
  "記憶",
  "私は記憶力が良い",
  "한국어 검색",
  "ai記憶*",
  "a\u0000b",
  "\u0000",
  "lone \ud800 surrogate",
  "\udc00",
  "tab\tnew\nline\r",
  "   ",
  "",
  "x".repeat(10_000),
  "ＡＮＤ ＮＥＡＲ（ａ）", // full-width, NFKC-folded
  "e\u0301te\u0301", // combining marks
  "snake_case_word",
  "C++ & C# || !x",
  "@user #tag $var",
  Array.from({ length: 100 }, (_, i) => `w${i}`).join(" "),
];

describe("buildFts5Query", () => {
  it.each(HOSTILE.map((q) => [q]))("emits only quoted terms for %j", (query) => {
    for (const operator of ["OR", "AND"] as const) {
      const fts = buildFts5Query(query, { operator });
      if (fts !== null) expect(fts).toMatch(SAFE_FTS5);
    }
  });

  it("returns null for text without searchable terms", () => {
    for (const query of ["", "   ", "*", '"', "()", "-- ;", "\u0000"])
      expect(buildFts5Query(query)).toBeNull();
  });

  it("quotes keywords of the query language as plain words", () => {
    expect(buildFts5Query("a OR b")).toBe('"a" OR "or" OR "b"');
    expect(buildFts5Query("NEAR(a b)")).toBe('"near" OR "a" OR "b"');
    expect(buildFts5Query("col:val")).toBe('"col" OR "val"');
    expect(buildFts5Query("-x ^start")).toBe('"x" OR "start"');
  });

  it("turns a SQL injection attempt into harmless words", () => {
    expect(buildFts5Query("'; DROP TABLE memories; --")).toBe('"drop" OR "table" OR "memories"');
  });

  it("joins with AND when asked", () => {
    expect(buildFts5Query("coffee tea", { operator: "AND" })).toBe('"coffee" AND "tea"');
  });

  it("makes `wild*` a prefix term", () => {
    expect(buildFts5Query("wild*")).toBe('"wild"*');
  });

  it("escapes double quotes in caller-supplied terms", () => {
    const fts = buildFts5Query("ignored", { terms: [{ text: 'a"b', prefix: false }] });
    expect(fts).toBe('"a""b"');
    expect(fts).toMatch(SAFE_FTS5);
  });
});

describe("extractSearchTerms", () => {
  it("lower-cases and drops duplicates", () => {
    expect(extractSearchTerms("Coffee coffee COFFEE tea")).toEqual([
      { text: "coffee", prefix: false },
      { text: "tea", prefix: false },
    ]);
  });

  it("treats `wild*` as a prefix term and `*wild` or `wild *` as a plain word", () => {
    expect(extractSearchTerms("wild*")).toEqual([{ text: "wild", prefix: true }]);
    expect(extractSearchTerms("*wild")).toEqual([{ text: "wild", prefix: false }]);
    expect(extractSearchTerms("wild *")).toEqual([{ text: "wild", prefix: false }]);
  });

  it("keeps a prefix and a plain term of the same word apart", () => {
    expect(extractSearchTerms("wild wild*")).toEqual([
      { text: "wild", prefix: false },
      { text: "wild", prefix: true },
    ]);
  });

  it("splits on punctuation, keeps underscores and marks", () => {
    expect(extractSearchTerms("user's snake_case e-mail").map((t) => t.text)).toEqual([
      "user",
      "s",
      "snake_case",
      "e",
      "mail",
    ]);
  });

  it("folds full-width text with NFKC", () => {
    expect(extractSearchTerms("ＡＢＣ１２３")).toEqual([{ text: "abc123", prefix: false }]);
  });

  it("keeps at most MAX_QUERY_TERMS terms", () => {
    expect(MAX_QUERY_TERMS).toBe(32);
    const terms = extractSearchTerms(Array.from({ length: 50 }, (_, i) => `w${i}`).join(" "));
    expect(terms).toHaveLength(32);
    expect(terms.at(-1)!.text).toBe("w31");
  });

  it("turns a 2-character CJK query into its bigram", () => {
    expect(extractSearchTerms("記憶")).toEqual([{ text: "記憶", prefix: false }]);
  });

  it("turns a 3-character CJK run into overlapping bigrams", () => {
    expect(extractSearchTerms("記憶力").map((t) => t.text)).toEqual(["記憶", "憶力"]);
  });

  it("splits mixed Latin and CJK words", () => {
    expect(extractSearchTerms("ai記憶").map((t) => t.text)).toEqual(["ai", "記憶"]);
    expect(extractSearchTerms("記憶AI").map((t) => t.text)).toEqual(["記憶", "ai"]);
  });

  it("keeps the prefix star on a Latin tail after CJK, drops it on CJK", () => {
    expect(extractSearchTerms("記憶ai*")).toEqual([
      { text: "記憶", prefix: false },
      { text: "ai", prefix: true },
    ]);
    expect(extractSearchTerms("ai記憶*")).toEqual([
      { text: "ai", prefix: false },
      { text: "記憶", prefix: false },
    ]);
  });

  it("handles Korean and katakana with the long vowel mark", () => {
    expect(extractSearchTerms("검색어").map((t) => t.text)).toEqual(["검색", "색어"]);
    expect(extractSearchTerms("メモリー").map((t) => t.text)).toEqual(["メモ", "モリ", "リー"]);
  });

  it("ignores NUL, lone surrogates and emoji", () => {
    expect(extractSearchTerms("a\u0000b \ud800 😀")).toEqual([
      { text: "a", prefix: false },
      { text: "b", prefix: false },
    ]);
  });
});

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
    for (const term of extractSearchTerms("記憶力")) expect(index.has(term.text)).toBe(true);
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
