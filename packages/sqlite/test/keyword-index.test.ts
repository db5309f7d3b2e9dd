import type { Memory, NormalizedFilter } from "@memory/api";
import { recallFilter, seededRandom } from "@memory/testkit";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { createSqliteMemory } from "../src/index.js";
import {
  asciiTokens,
  KEYWORD_INDEX_MAX,
  KeywordIndex,
  WAIT_DIVISOR,
} from "../src/recall/keyword-index.js";
import { RecallRows } from "../src/recall/recall-rows.js";
import { StatementCache } from "../src/statement-cache.js";
import { countingStatements, tempDbPath } from "./helpers.js";

// The in-memory index of a small file (keyword-index.ts) ranks exactly as FTS5's bm25() does,
// and stays exact while the file is written.
const closers: (() => unknown)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

const WORDS = [
  "lake",
  "pizza",
  "hiking",
  "camping",
  "painting",
  "dog",
  "trip",
  "sunrise",
  "guitar",
  "museum",
  "sister",
  "adoption",
  "café",
  "東京",
];

/** A long-lived reader: its own connection, kept rows and index, each build counted. */
/** A memory on a fresh file, closed after the test. */
function openMemory() {
  const path = tempDbPath();
  const memory = createSqliteMemory({ path, logger: () => {} });
  closers.push(() => memory.close());
  return { path, memory };
}

function readerOn(path: string, index = new KeywordIndex({ waitFor: () => 0 })) {
  const db = new Database(path);
  closers.push(() => db.close());
  const statements = new StatementCache(db);
  // The real cache, with each build counted.
  const { cache: counting, count: builds } = countingStatements(statements, (sql) =>
    sql.startsWith("SELECT doc_id, search_terms"),
  );
  const rows = new RecallRows(index);
  const filter = recallFilter({ namespace: "a" }) as NormalizedFilter;
  /** The index's best, positioned as a recall positions it (following the change log). */
  const best = (
    phrases: readonly string[],
    pool: number,
    live = false,
    only: { namespace?: string } = {},
  ) =>
    statements.snapshot(() => {
      rows.at(counting, statements.writeVersion(), filter);
      return index.best(counting, phrases, pool, { live, ...only });
    });
  /** The index's bm25() of every match, positioned the same way. */
  const bm25 = (phrases: readonly string[]) =>
    statements.snapshot(() => {
      rows.at(counting, statements.writeVersion(), filter);
      return index.bm25(counting, phrases);
    });
  return { statements, index, best, bm25, builds };
}

/**
 * FTS5's own answer: the reference (`live`: superseded rows left out, as a recall does; with a
 * namespace, only its rows, ranked over the whole file).
 */
function ftsBest(
  statements: StatementCache,
  phrases: readonly string[],
  pool: number,
  live = false,
  namespace: string | null = null,
): number[] {
  return statements.db
    .prepare(
      `SELECT memories_fts.rowid FROM memories_fts JOIN memories m ON m.doc_id = memories_fts.rowid
       WHERE memories_fts MATCH ? AND (? = 0 OR m.superseded_by IS NULL)
         AND (? IS NULL OR m.namespace = ?)
       ORDER BY bm25(memories_fts), memories_fts.rowid LIMIT ?`,
    )
    .pluck()
    .all(
      phrases.map((phrase) => `"${phrase}"`).join(" OR "),
      live ? 1 : 0,
      namespace,
      namespace,
      pool,
    ) as number[];
}

/** One statement on a connection of its own (what no API does), the triggers as for any writer. */
function rawWrite(path: string, sql: string, ...params: unknown[]): void {
  const raw = new Database(path);
  raw.function("memory_bulk_loading", (_docId: unknown) => 0);
  raw.prepare(sql).run(...params);
  raw.close();
}

async function write(memory: Memory, next: () => number, step: number, path: string) {
  const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)]!;
  const namespace = pick(["a", "a", "b"]);
  const key = `k${Math.floor(next() * 30)}`;
  // Repeated words (term frequencies above 1) and lengths from 1 to 24 words.
  const text = () =>
    Array.from({ length: 1 + Math.floor(next() * next() * 24) }, () => pick(WORDS)).join(" ");
  const kind = next();
  if (kind < 0.4) await memory.store({ key, content: text(), namespace, sessionId: "s" });
  else if (kind < 0.43) {
    // Terms past what the log keeps of a row: the index reads the row, not the log.
    const long = Array.from({ length: 3000 }, () => pick(WORDS)).join(" ");
    await memory.store({ key, content: long, namespace });
  } else if (kind < 0.6) await memory.forget(key, { namespace }).catch(() => undefined);
  else if (kind < 0.65) await memory.pin(key, { namespace }).catch(() => undefined);
  else if (kind < 0.7)
    // Superseded and live again (what conflict detection and unsupersede do): terms unchanged.
    rawWrite(
      path,
      "UPDATE memories SET superseded_by = CASE WHEN superseded_by IS NULL THEN 'newer' END WHERE key = ?",
      key,
    );
  else if (kind < 0.75)
    // A row moved to the other namespace, its terms unchanged (no API does it).
    rawWrite(
      path,
      "UPDATE OR IGNORE memories SET namespace = ? WHERE key = ? AND namespace = ?",
      namespace === "a" ? "b" : "a",
      key,
      namespace,
    );
  else if (kind < 0.8)
    // Another connection rewrites a row's terms directly (the triggers must still log it).
    rawWrite(
      path,
      "UPDATE memories SET search_terms = ?, term_count = ? WHERE key = ?",
      "lake lake dog",
      3,
      key,
    );
  else if (kind < 0.97) await memory.store({ key: `new-${step}`, content: text(), namespace });
  else
    await memory.importEntries(
      Array.from({ length: 12 }, (_, index) => ({
        key: `bulk-${step}-${index}`,
        content: text(),
        namespace,
      })),
    );
}

const QUERIES = [
  ["lake"],
  ["lake", "dog"],
  ["camp", "pizza", "sunris"],
  ["museum", "sister", "adopt", "guitar"],
  ["café", "東京"],
  ["absent", "lake"],
  ["dog", "dog"],
];

describe("sqlite: the in-memory keyword index", () => {
  it("splits text into FTS5's ascii tokens", () => {
    const db = new Database(":memory:");
    closers.push(() => db.close());
    db.exec(`CREATE VIRTUAL TABLE t USING fts5(x, tokenize = 'ascii');
      CREATE VIRTUAL TABLE v USING fts5vocab(t, 'instance');`);
    const texts = [
      "lake sunrise lake",
      "  two  spaces ",
      "UPPER Case mIxEd",
      "don't e-mail c++ a_b 3.14 x/y",
      "café naïve ÉCOLE",
      "東京 タワー",
      "tab\tnew\nline\u0000nul",
      "",
      "emoji 🎨 in-between",
    ];
    const insert = db.prepare("INSERT INTO t (rowid, x) VALUES (?, ?)");
    for (const [index, text] of texts.entries()) insert.run(index + 1, text);
    const tokensOf = db.prepare("SELECT term FROM v WHERE doc = ? ORDER BY offset").pluck();
    texts.forEach((text, index) => {
      expect(asciiTokens(text)).toEqual(tokensOf.all(index + 1));
    });
  });

  it("ranks as FTS5 does after every few writes, 120 times (stores, rewrites, supersessions, moves, forgets, imports, another connection)", async () => {
    const { path, memory } = openMemory();
    await memory.store({ key: "seed", content: "lake pizza", namespace: "a" });
    const reader = readerOn(path);
    const next = seededRandom(41);
    let compared = 0;
    for (let step = 0; step < 120; step++) {
      const writes = 1 + Math.floor(next() * 3);
      for (let index = 0; index < writes; index++)
        await write(memory, next, step * 3 + index, path);
      for (const phrases of QUERIES) {
        // The scores themselves, bit for bit (the logarithm is SQLite's, as FTS5's is).
        const scores = reader.statements.db
          .prepare("SELECT rowid, bm25(memories_fts) FROM memories_fts WHERE memories_fts MATCH ?")
          .raw()
          .all(phrases.map((phrase) => `"${phrase}"`).join(" OR ")) as [number, number][];
        expect(reader.bm25(phrases)).toEqual(new Map(scores));
        for (const pool of [1, 5, 40])
          for (const live of [false, true])
            for (const namespace of [null, "a", "b", "absent"]) {
              const expected = ftsBest(reader.statements, phrases, pool, live, namespace);
              const only = namespace === null ? {} : { namespace };
              expect(reader.best(phrases, pool, live, only)).toEqual(expected);
              compared += expected.length;
            }
      }
    }
    expect(compared).toBeGreaterThan(50_000);
    // Not vacuous: superseded rows were among the matches.
    const superseded = reader.statements.db
      .prepare("SELECT count(*) FROM memories WHERE superseded_by IS NOT NULL")
      .pluck()
      .get() as number;
    expect(superseded).toBeGreaterThan(0);
    // Followed, not rebuilt: only imports (a bulk load starts the log over) rebuild it.
    expect(reader.builds()).toBeGreaterThan(0);
    expect(reader.builds()).toBeLessThan(20);
  });

  it("leaves a file past its size to FTS5, and indexes it again once small enough", async () => {
    const { path, memory } = openMemory();
    await memory.importEntries(
      Array.from({ length: KEYWORD_INDEX_MAX }, (_, index) => ({
        key: `e${index}`,
        content: index % 2 === 0 ? "lake trip" : "dog walk",
        namespace: "a",
      })),
    );
    const reader = readerOn(path);
    expect(reader.best(["lake"], 3)).toEqual(ftsBest(reader.statements, ["lake"], 3));
    await memory.store({ key: "one-more", content: "lake", namespace: "a" });
    expect(reader.best(["lake"], 3)).toBeUndefined();
    await memory.forget("e0", { namespace: "a" });
    expect(reader.best(["lake"], 3)).toEqual(ftsBest(reader.statements, ["lake"], 3));
    expect(reader.builds()).toBe(2);
  });

  it("answers only phrases of one token", async () => {
    const { path, memory } = openMemory();
    await memory.store({ key: "k", content: "lake trip", namespace: "a" });
    const reader = readerOn(path);
    expect(reader.best(["lake trip"], 3)).toBeUndefined();
    expect(reader.best([""], 3)).toBeUndefined();
    expect(reader.best(["LAKE"], 3)).toEqual(ftsBest(reader.statements, ["LAKE"], 3));
    expect(reader.best(["LAKE"], 3)).toHaveLength(1);
  });

  it("is built only after FTS5 answered entries / 16 recalls since the last start over", async () => {
    const { path, memory } = openMemory();
    const entries = (from: number) =>
      Array.from({ length: 40 }, (_, index) => ({
        key: `e${from + index}`,
        content: "lake trip",
        namespace: "a",
      }));
    await memory.importEntries(entries(0));
    const reader = readerOn(path, new KeywordIndex());
    const answers = () =>
      Array.from({ length: 8 }, () => reader.best(["lake"], 3) !== undefined).join(" ");
    // 40 entries: FTS5 answers 3 recalls, then the index does.
    expect(Math.ceil(40 / WAIT_DIVISOR)).toBe(3);
    expect(answers()).toBe("false false false true true true true true");
    // A store is followed: no wait.
    await memory.store({ key: "one", content: "lake", namespace: "a" });
    expect(reader.best(["lake"], 3)).toEqual(ftsBest(reader.statements, ["lake"], 3));
    // An import starts over: 81 entries, 6 recalls answered by FTS5 first.
    await memory.importEntries(entries(40));
    expect(answers()).toBe("false false false false false false true true");
    expect(reader.builds()).toBe(2);
  });

  it("is built again once more than 10,000 namespaces have come and gone", async () => {
    const { path, memory } = openMemory();
    await memory.store({ key: "k", content: "lake trip", namespace: "a" });
    const reader = readerOn(path);
    expect(reader.best(["lake"], 3)).toHaveLength(1);
    const index = reader.index;
    const docId = reader.best(["lake"], 1)![0]!;
    // The row moving namespace after namespace (as the log would tell it), its terms the same.
    const move = (namespace: number) => ({
      docId,
      before: { namespace: `n${namespace}`, terms: "lake trip" },
      after: { namespace: `n${namespace + 1}`, terms: "lake trip", superseded: false },
    });
    // "a" and n1 to n9999: 10,000 numbers, kept.
    const moves = Array.from({ length: 2 * KEYWORD_INDEX_MAX - 1 }, (_, namespace) =>
      move(namespace),
    );
    index.followed(reader.statements, "", "", moves);
    expect(reader.best(["lake"], 3)).toHaveLength(1);
    expect(reader.builds()).toBe(1);
    index.followed(reader.statements, "", "", [move(2 * KEYWORD_INDEX_MAX - 1)]);
    // Started over: the next ask builds it again (and finds the row where the file has it).
    expect(reader.best(["lake"], 3)).toHaveLength(1);
    expect(reader.builds()).toBe(2);
  });
});
