import type { NormalizedFilter, QueryTerm } from "@memory/api";
import { filterSql, hasNarrowFilter } from "../filter-sql.js";
import type { StatementCache } from "../statement-cache.js";
import type { KeywordIndex } from "./keyword-index.js";
import type { RecallRows } from "./recall-rows.js";
import { SEARCH_COLUMNS, type SearchRow, searchRows } from "./search-row.js";

const quoted = (text: string) => `"${text.replaceAll('"', '""')}"`;

/**
 * FTS5 MATCH text for analyzed terms: each quoted (so it is one plain token), ORed; a prefix
 * term also matches its word's stem (`termMatches` in @memory/api).
 */
export function matchExpression(terms: readonly QueryTerm[]): string {
  return terms
    .map((term) => {
      if (!term.prefix) return quoted(term.text);
      const prefix = `${quoted(term.text)}*`;
      return term.stem === undefined ? prefix : `${prefix} OR ${quoted(term.stem)}`;
    })
    .join(" OR ");
}

/**
 * The first `pool` entries that match any of `terms` and pass the filter, in FTS5's rank order (BM25
 * over the whole file, ties by doc id), with their columns.
 *
 * Three ways to the same rows:
 * - Indexed: when the filter narrows only the namespace and superseded entries, a small file's
 *   in-memory index (`index`, keyword-index.ts) ranks every match as FTS5's bm25() would, without
 *   an FTS5 query, and passes over other namespaces' and superseded rows itself; only the best
 *   `pool` rows are read and filtered (`fromIndex`).
 * - Joined: every match is tested against the filter through the covering index
 *   `memories_filter_by_doc` (schema v8; never the row, which is large), the passing ones
 *   ordered by `bm25()` and doc id under a bounded sort, and only the best `pool` rows read.
 *   (`ORDER BY rank` instead runs a nested statement per match and read rows in rank order
 *   until `pool` passed: at 100,000 entries with 2% passing, four times as slow.)
 * - Ranked first: without the index, when the namespace is the only one in the file and the
 *   filter narrows nothing else, nearly every match passes. Then the best `pool` doc ids come
 *   from FTS5 alone, ordered by `bm25()` and doc id under a bounded sort (about a third
 *   cheaper than `ORDER BY rank` on 400 to 10,000 entries), and only those rows are read and
 *   filtered. If fewer than `pool` of them pass while more matches exist (superseded entries),
 *   the joined statement answers instead.
 *
 * Both orders are the same: `rank` is `bm25()` (the table sets no other rank function), and
 * FTS5 orders equal ranks by doc id (test/ranked-matches.test.ts compares them row for row).
 *
 * Rows come from `rows` (recall-rows.ts) when this write version already read them under this
 * filter; only the others are read.
 */
export function rankedMatches(
  statements: StatementCache,
  terms: readonly QueryTerm[],
  filter: NormalizedFilter & { namespace: string },
  pool: number,
  rows: RecallRows,
  index?: KeywordIndex,
): SearchRow[] {
  const { where, params } = filterSql(filter);
  const broad = !hasNarrowFilter(filter);
  const read = (best: number[]) =>
    rows.read(best, (missing) =>
      searchRows(
        statements.get(
          `SELECT ${SEARCH_COLUMNS} FROM json_each(?) AS wanted
           CROSS JOIN memories m ON m.doc_id = wanted.value WHERE ${where}`,
        ),
        JSON.stringify(missing),
        ...params,
      ),
    );
  // A prefix term is no single token: FTS5 ranks it.
  if (index && broad && !terms.some((term) => term.prefix)) {
    const indexed = fromIndex(
      index,
      statements,
      terms.map((term) => term.text),
      pool,
      { namespace: filter.namespace, live: !filter.includeSuperseded },
      read,
    );
    if (indexed) return indexed;
  }
  // Only FTS5's statements need the MATCH text.
  const match = matchExpression(terms);
  if (broad && namespaceIsAlone(statements, filter.namespace)) {
    const best = statements
      .get(
        `SELECT rowid FROM memories_fts WHERE memories_fts MATCH ?
         ORDER BY bm25(memories_fts), rowid LIMIT ?`,
      )
      .pluck()
      .all(match, pool) as number[];
    const found = read(best);
    if (found.length === best.length || best.length < pool) return found;
  }
  // INDEXED BY: the filter's columns are all in the index, but the planner would rather look
  // each match up by its primary key (the row) than by a covering index that starts with it.
  const best = statements
    .get(
      `SELECT memories_fts.rowid FROM memories_fts
       JOIN memories m INDEXED BY memories_filter_by_doc ON m.doc_id = memories_fts.rowid
       WHERE memories_fts MATCH ? AND ${where}
       ORDER BY bm25(memories_fts), memories_fts.rowid LIMIT ?`,
    )
    .pluck()
    .all(match, ...params, pool) as number[];
  return read(best);
}

/**
 * The best `pool` passing rows in the index's order (FTS5's), or undefined when the index cannot
 * answer. The index passes over other namespaces' and superseded rows itself (`only`: an agent's
 * stores supersede some turns, and the joined statement would cost as much as FTS5's whole
 * ranking); where other filtered rows (snoozed ones) crowd the best, it is asked for four times
 * as many until enough pass or no more match.
 */
function fromIndex(
  index: KeywordIndex,
  statements: StatementCache,
  phrases: readonly string[],
  pool: number,
  only: { namespace: string; live: boolean },
  read: (best: number[]) => SearchRow[],
): SearchRow[] | undefined {
  for (let asked = pool; ; asked *= 4) {
    const best = index.best(statements, phrases, asked, only);
    if (best === undefined) return undefined;
    const found = read(best);
    if (found.length >= pool || best.length < asked) return found.slice(0, pool);
  }
}

/** True when no other namespace holds entries (`namespace_stats`, kept by triggers). */
function namespaceIsAlone(statements: StatementCache, namespace: string): boolean {
  return (
    statements
      .get(
        "SELECT NOT EXISTS (SELECT 1 FROM namespace_stats WHERE namespace <> ? AND documents > 0)",
      )
      .pluck()
      .get(namespace) === 1
  );
}
