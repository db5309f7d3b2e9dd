import type { NormalizedFilter } from "@memory/api";
import { analyzeQuery, searchTerms } from "@memory/core";
import { recallFilter } from "@memory/testkit";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { createSqliteMemory } from "../src/index.js";
import { KeywordIndex } from "../src/recall/keyword-index.js";
import { matchExpression, rankedMatches } from "../src/recall/ranked-matches.js";
import { RecallRows } from "../src/recall/recall-rows.js";
import { StatementCache } from "../src/statement-cache.js";
import { tempDbPath } from "./helpers.js";

type Filter = NormalizedFilter & { namespace: string };
/** A normalized filter: the namespace, superseded entries left out, nothing else narrowed. */
const filterOf = (namespace: string, narrower: Partial<NormalizedFilter> = {}): Filter =>
  recallFilter({ namespace, ...narrower });

const databases: Database.Database[] = [];
afterEach(() => {
  for (const db of databases.splice(0)) db.close();
});

/**
 * Many equal BM25 scores (the same sentences stored again under other keys), superseded
 * entries among the best matches, two sessions and two categories.
 */
async function store(namespaces: readonly string[]): Promise<StatementCache> {
  const path = tempDbPath();
  const memory = createSqliteMemory({ path, logger: () => {} });
  const sentences = [
    "we went camping by the lake",
    "the lake was cold",
    "camping gear for the lake trip, lake lake",
    "a quiet evening at home",
    "lake",
  ];
  for (const namespace of namespaces) {
    for (let copy = 0; copy < 12; copy++) {
      for (const [index, content] of sentences.entries()) {
        await memory.store({
          key: `s${index}-${copy}`,
          content,
          namespace,
          sessionId: `session-${copy % 2}`,
          category: copy % 3 === 0 ? "daily" : "core",
        });
      }
    }
  }
  await memory.close();
  const db = new Database(path);
  databases.push(db);
  // Superseded: every copy of the best-ranked sentence but one, so they crowd the best rows.
  db.prepare(
    "UPDATE memories SET superseded_by = 'newer' WHERE key LIKE 's4-%' AND key <> 's4-5'",
  ).run();
  // Snoozed past AWAKE_AT: the second-best sentence's copies but two (a recall's `awakeAt`).
  db.prepare(
    "UPDATE memories SET snoozed_until = ? WHERE key LIKE 's2-%' AND key NOT IN ('s2-3', 's2-7')",
  ).run(SNOOZED_UNTIL);
  return new StatementCache(db);
}

const AWAKE_AT = "2026-03-01T12:00:00.000Z";
const SNOOZED_UNTIL = "2026-04-01T00:00:00.000Z";

/** The reference: FTS5's own rank order, joined and filtered row by row. */
function joined(statements: StatementCache, match: string, filter: Filter, pool: number): number[] {
  const rows = statements.db
    .prepare(
      `SELECT m.doc_id FROM memories_fts JOIN memories m ON m.doc_id = memories_fts.rowid
       WHERE memories_fts MATCH ? AND m.namespace = ?
         AND (? OR m.superseded_by IS NULL) AND (? IS NULL OR m.session_id = ?)
         AND (? IS NULL OR m.snoozed_until IS NULL OR m.snoozed_until <= ?)
       ORDER BY rank LIMIT ?`,
    )
    .pluck()
    .all(
      match,
      filter.namespace,
      filter.includeSuperseded ? 1 : 0,
      filter.sessionId ?? null,
      filter.sessionId ?? null,
      filter.awakeAt ?? null,
      filter.awakeAt ?? null,
      pool,
    ) as number[];
  return rows;
}

const queries = ["lake", "camping lake", "cold evening", "lake*", "nothing-here"].map((query) =>
  searchTerms(analyzeQuery(query)),
);
const filters = [
  filterOf("a"),
  filterOf("a", { includeSuperseded: true }),
  filterOf("a", { sessionId: "session-1" }),
  // Snoozed rows among the best: the index passes them to the rows' own filter.
  filterOf("a", { awakeAt: AWAKE_AT }),
];

describe("sqlite: keyword candidates in FTS5's rank order", () => {
  it.each([
    ["alone in its file", ["a"]],
    ["beside another namespace", ["a", "b"]],
  ])(
    "are the rows and order of FTS5's rank joined with the filter (namespace %s)",
    async (_, namespaces) => {
      const statements = await store(namespaces);
      // The in-memory index of a small file, and FTS5 alone: the same rows.
      const index = new KeywordIndex({ waitFor: () => 0 });
      let compared = 0;
      for (const terms of queries) {
        for (const filter of filters) {
          for (const pool of [1, 3, 10, 40, 200]) {
            const expected = joined(statements, matchExpression(terms), filter, pool);
            const rows = rankedMatches(statements, terms, filter, pool, new RecallRows());
            expect(rows.map((row) => row[0])).toEqual(expected);
            const indexed = rankedMatches(statements, terms, filter, pool, new RecallRows(), index);
            expect(indexed.map((row) => row[0])).toEqual(expected);
            compared += expected.length;
          }
        }
      }
      // Not vacuous: most comparisons had rows (all 60 "lake" entries of the namespace with pool 200).
      expect(compared).toBeGreaterThan(800);
    },
  );

  it("orders ties like FTS5's rank: by doc id", async () => {
    const statements = await store(["a"]);
    const match = matchExpression(searchTerms(analyzeQuery("lake")));
    const byRank = statements.db
      .prepare(
        "SELECT rowid, rank FROM memories_fts WHERE memories_fts MATCH ? ORDER BY rank LIMIT 100",
      )
      .raw()
      .all(match) as [number, number][];
    const byBm25 = statements.db
      .prepare(
        `SELECT rowid, bm25(memories_fts) FROM memories_fts WHERE memories_fts MATCH ?
         ORDER BY bm25(memories_fts), rowid LIMIT 100`,
      )
      .raw()
      .all(match) as [number, number][];
    expect(byBm25).toEqual(byRank);
    const ties = byRank.filter((row, index) => index > 0 && row[1] === byRank[index - 1]![1]);
    expect(ties.length).toBeGreaterThan(40);
  });
});
