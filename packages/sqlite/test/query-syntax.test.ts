import { MemoryError } from "@memory/api";
import { createTestEmbedder, hostileQueries } from "@memory/testkit";
import { describe, expect, it } from "vitest";
import { createSqliteMemory } from "../src/index.js";
import { tempDbPath } from "./helpers.js";

const SYNTAX = [
  '"',
  '"unbalanced',
  "a AND",
  "OR OR OR",
  "NEAR(a b, 2)",
  "key:content",
  "content: drop",
  "-minus",
  "^caret",
  "(((",
  "*",
  "a*b*",
  "col:* OR",
  "'; DROP TABLE memories; --",
  "%_\\",
  "memories_fts MATCH 'x'",
  "{key content}: x",
];

describe("query syntax injection", () => {
  it("answers FTS5 and SQL syntax in queries without errors and without touching rows", async () => {
    const memory = createSqliteMemory({
      path: tempDbPath(),
      embedder: createTestEmbedder({ dimensions: 32 }),
    });
    await memory.store({ key: "plain", content: "an ordinary fact about gardening" });
    await memory.store({
      key: "syntax",
      content: 'content with "quotes", NEAR(a b) AND OR - ^ * : ( ) and 100%_done',
    });
    const before = await memory.list();
    for (const query of [...SYNTAX, ...hostileQueries()]) {
      for (const mode of ["bm25", "hybrid", "embedding"] as const) {
        // Results or a typed error (NUL / lone surrogates may be refused), never a parser error.
        const outcome = await memory.recall(query, { mode }).catch((error: unknown) => error);
        if (!Array.isArray(outcome))
          expect(MemoryError.hasCode(outcome, "INVALID_INPUT")).toBe(true);
      }
    }
    expect(await memory.list()).toEqual(before);
    // The stored syntax is just words.
    expect((await memory.recall("NEAR", { mode: "bm25" }))[0]!.key).toBe("syntax");
    expect((await memory.recall('"quotes"', { mode: "bm25" }))[0]!.key).toBe("syntax");
    expect((await memory.recall("100%_done")).map((entry) => entry.key)).toContain("syntax");
    await memory.close();
  });

  it("stores FTS syntax as content without changing other rows", async () => {
    const memory = createSqliteMemory({ path: tempDbPath() });
    await memory.store({ key: "a", content: "alpha" });
    for (const content of SYNTAX) await memory.store({ key: `s-${content}`, content });
    expect((await memory.get("a"))!.content).toBe("alpha");
    expect(await memory.count()).toBe(SYNTAX.length + 1);
    for (const content of SYNTAX) expect((await memory.get(`s-${content}`))!.content).toBe(content);
    await memory.close();
  });
});

describe("CJK recall", () => {
  it("finds a Japanese entry by a two-character word", async () => {
    const memory = createSqliteMemory({ path: tempDbPath() });
    await memory.store({ key: "ja", content: "私は記憶力が良い" });
    await memory.store({ key: "zh", content: "我喜欢喝咖啡" });
    await memory.store({ key: "ko", content: "나는 커피를 좋아한다" });
    await memory.store({ key: "en", content: "memory is good" });
    expect((await memory.recall("記憶")).map((entry) => entry.key)).toEqual(["ja"]);
    expect((await memory.recall("咖啡", { mode: "bm25" }))[0]!.key).toBe("zh");
    expect((await memory.recall("커피", { mode: "bm25" }))[0]!.key).toBe("ko");
    const [hit] = await memory.recall("記憶");
    expect(hit!.explain!.source).toBe("keyword");
    await memory.close();
  });
});
