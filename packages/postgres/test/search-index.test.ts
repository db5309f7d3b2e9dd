import type { QueryTerm } from "@memory/api";
import {
  countIndexedTerms,
  indexedTerms,
  KEYWORD_POSTINGS_BUDGET,
  MAX_TERM_LENGTH,
  selectingTerms,
} from "@memory/core";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { createPostgresMemory, type PostgresMemory } from "../src/index.js";
import { MAX_LEXEME_BYTES, termQuery } from "../src/search-terms.js";
import { admin, schemaRegistry, TEST_URL } from "./helpers.js";

const schemas = schemaRegistry("idx");
const open: PostgresMemory[] = [];
afterEach(async () => {
  await Promise.allSettled(open.splice(0).map((memory) => memory.close()));
});
afterAll(() => schemas.dropAll());

function create(): PostgresMemory {
  const memory = createPostgresMemory({
    connectionString: TEST_URL,
    schema: schemas.next(),
    maxConnections: 4,
  });
  open.push(memory);
  return memory;
}

/** Text that PostgreSQL's own parser (to_tsvector) would split, merge, drop or fold differently. */
const TRICKY: [string, string][] = [
  ["accents", "Café crème brûlée, naïve façade, Ærøskøbing, ÀÉÎÕÜ"],
  ["decomposed", "Cafe\u0301 cre\u0300me bru\u0302le\u0301e"],
  ["zalgo", "Z̤͔ͧ̑̓ä͖̭̈̇lͮ̒ͫǧ̗͚̚o̙̔ͮ̇͐̇ text"],
  ["german", "Straße STRASSE İstanbul ﬁnance ﬂow"],
  ["apostrophes", "don't O'Brien rock'n'roll l’amour it''s 'quoted'"],
  ["digits", "version 1.2.3, the 42nd and 3rd, 1st place, 2024-01-05 12:30, 3.14159 1e10 0x1F"],
  ["other-digits", "١٢٣ Arabic-Indic ٣٤ and ۱۲ Persian, ０１２ full-width, Ⅻ ½ ² ① x² H₂O"],
  ["cjk-ja", "私は記憶力が良いです"],
  ["cjk-zh", "我喜欢喝绿茶和乌龙茶"],
  ["cjk-ko", "저는 커피를 좋아합니다"],
  ["cjk-mixed", "AI記憶システムのテスト version2 ｶﾀｶﾅ 𠀋𠀌 rare Han"],
  ["scripts", "Ελληνικά κείμενο, Русский текст, עברית, العربية, हिन्दी, ไทย, ქართული"],
  ["symbols", "emoji 😀 🎉 done; tabs\tand\nnewlines; a'b\\c; ' OR 1=1 --; && || !! <-> :*"],
  ["urls", "mail test@example.com, https://x.y/z?q=1&r=2, /usr/local/bin, C:\\Windows, a.b.c"],
  ["cases", "snake_case kebab-case camelCase HTTPServer iPhone XMLHttpRequest"],
  ["stems", "running runs ran meetings meeting generalization connected connections"],
  ["long", `start ${"a1".repeat(1500)} end`],
  ["long-cjk", `${"記".repeat(800)} tail`],
];

interface IndexRow {
  key: string;
  content: string;
  search_terms: string;
  term_count: number;
  lexemes: string[];
}

async function indexRows(memory: PostgresMemory): Promise<IndexRow[]> {
  return admin<IndexRow>(
    `SELECT key, content, search_terms, term_count, tsvector_to_array(search) AS lexemes
     FROM "${memory.schema}".memories ORDER BY key`,
  );
}

const indexable = (terms: string) =>
  new Set(
    terms.split(" ").filter((term) => term !== "" && Buffer.byteLength(term) <= MAX_LEXEME_BYTES),
  );

describe("postgres: the full-text index holds exactly the analyzer's terms", () => {
  it("stores indexedTerms and indexes each term whole as one lexeme (store and import)", async () => {
    const memory = create();
    for (const [key, content] of TRICKY) await memory.store({ key, content });
    await memory.importEntries(TRICKY.map(([key, content]) => ({ key: `i-${key}`, content })));
    // A key with terms and a content without any (the analyzer leaves a trailing space).
    await memory.store({ key: "zebra", content: "!!! ... 😀" });
    const rows = await indexRows(memory);
    expect(rows).toHaveLength(TRICKY.length * 2 + 1);
    let lexemes = 0;
    for (const row of rows) {
      expect(row.search_terms, row.key).toBe(indexedTerms(row.key, row.content));
      expect(row.term_count, row.key).toBe(countIndexedTerms(row.search_terms));
      expect(new Set(row.lexemes), row.key).toEqual(indexable(row.search_terms));
      lexemes += row.lexemes.length;
      // Every lexeme is found by the tsquery the keyword stage builds for it.
      const terms: QueryTerm[] = row.lexemes.map((text) => ({ text, prefix: false, stop: false }));
      const found = await admin<{ all: boolean }>(
        `SELECT bool_and(m.search @@ q) AS all FROM "${memory.schema}".memories m,
           unnest($2::tsquery[]) AS q WHERE m.key = $1`,
        [row.key, terms.map(termQuery)],
      );
      if (terms.length > 0) expect(found[0]!.all, row.key).toBe(true);
    }
    expect(lexemes).toBeGreaterThan(200);
    // The analyzer really produced what to_tsvector would have mangled.
    const all = new Set(rows.flatMap((row) => row.lexemes));
    for (const term of [
      "cafe",
      "绿茶",
      "記憶",
      "憶力",
      "커피",
      "brien",
      "٣٤",
      "0x1f",
      "ai",
      "ﬁnance",
      "istanbul",
    ]) {
      if (indexedTerms("", term).split(" ").length === 1)
        expect(all.has(indexedTerms("", term)), term).toBe(true);
    }
    const zebra = rows.find((row) => row.key === "zebra")!;
    expect(zebra.lexemes).toEqual(["zebra"]);
    // A very long run is cut to MAX_TERM_LENGTH by the analyzer: indexed, searchable by its start.
    const long = rows.find((row) => row.key === "long")!;
    expect(long.search_terms.split(" ").map((term) => term.length)).toEqual([
      4,
      5,
      MAX_TERM_LENGTH,
      3,
    ]);
    expect(long.term_count).toBe(4);
    expect(long.lexemes.sort()).toEqual(
      ["end", "long", "start", "a1".repeat(MAX_TERM_LENGTH / 2)].sort(),
    );
  });

  it("finds entries by tricky query words through recall", async () => {
    const memory = create();
    for (const [key, content] of TRICKY) await memory.store({ key, content });
    const bm25 = { mode: "bm25", minScore: 0, limit: 50 } as const;
    const find = async (query: string) =>
      (await memory.recall(query, bm25)).map((entry) => entry.key);
    expect(await find("CAFÉ")).toEqual(expect.arrayContaining(["accents", "decomposed"]));
    expect(await find("brûlée")).toEqual(expect.arrayContaining(["accents", "decomposed"]));
    expect(await find("zalgo")).toEqual(["zalgo"]);
    expect(await find("記憶")).toEqual(expect.arrayContaining(["cjk-ja", "cjk-mixed"]));
    expect(await find("٣٤")).toEqual(["other-digits"]);
    expect(await find("meeting")).toEqual(["stems"]);
    expect(await find("o'brien")).toEqual(["apostrophes"]);
    expect(await find("XMLHttp*")).toEqual(["cases"]);
  });
});

describe("postgres: namespace statistics", () => {
  const exact = async (memory: PostgresMemory) => {
    const [stats, truth] = await Promise.all([
      admin<{ namespace: string; documents: string; terms: string }>(
        `SELECT namespace, documents, terms FROM "${memory.schema}".namespace_stats
         WHERE documents <> 0 OR terms <> 0 ORDER BY namespace`,
      ),
      admin<{ namespace: string; documents: string; terms: string }>(
        `SELECT namespace, count(*) AS documents, sum(term_count) AS terms
         FROM "${memory.schema}".memories GROUP BY namespace ORDER BY namespace`,
      ),
    ]);
    expect(stats).toEqual(truth);
    return stats;
  };

  it("stay exact through every write path, bulk imports on two connections included", async () => {
    const memory = create();
    await memory.store({ key: "a", content: "one two three" });
    await memory.store({ key: "a", content: "now four words here" });
    await memory.store({ key: "b", content: "x", namespace: "n2", sessionId: "s" });
    await memory.store({ key: "c", content: "!!!", namespace: "n2", sessionId: "s" });
    await exact(memory);
    // Several batches at once over three namespaces, upserting keys that exist.
    const report = await memory.importEntries(
      Array.from({ length: 6500 }, (_, i) => ({
        key: i % 5 === 0 ? "a" : `k${i}`,
        namespace: ["default", "n2", "n3"][i % 3]!,
        content: `entry ${i} ${"word ".repeat(i % 11)}`,
        ...(i % 4 === 0 ? { sessionId: "s" } : {}),
      })),
    );
    expect(report.rejected).toEqual([]);
    const imported = await exact(memory);
    expect(imported.map((row) => row.namespace)).toEqual(["default", "n2", "n3"]);
    expect(await memory.markSuperseded("b", "c", { namespace: "n2" })).toBe(true);
    expect(await memory.forget("k1", { namespace: "n2" })).toBe(true);
    expect(await memory.purgeSession("s", { namespace: "n3" })).toBeGreaterThan(0);
    await exact(memory);
    expect(await memory.purgeNamespace("n2")).toBeGreaterThan(0);
    await memory.store({ key: "again", content: "back in n2", namespace: "n2" });
    const final = await exact(memory);
    expect(final.find((row) => row.namespace === "n2")).toEqual({
      namespace: "n2",
      documents: "1",
      terms: "4", // "again back in n2": the key's terms count too
    });
  });
});

describe("postgres: keyword selection", () => {
  const term = (text: string): QueryTerm => ({ text, prefix: false, stop: false });

  it("selects by the rarest terms within the postings budget, at least one", () => {
    const terms = [term("common"), term("rare"), term("absent"), term("mid")];
    expect(selectingTerms(terms, [50_000, 3, 0, 900]).map((t) => t.text)).toEqual(["rare", "mid"]);
    expect(selectingTerms(terms, [5, 3, 0, 9]).map((t) => t.text)).toEqual([
      "rare",
      "common",
      "mid",
    ]);
    expect(selectingTerms(terms.slice(0, 1), [KEYWORD_POSTINGS_BUDGET * 3])).toHaveLength(1);
    expect(selectingTerms(terms, [0, 0, 0, 0])).toEqual([]);
  });
});
