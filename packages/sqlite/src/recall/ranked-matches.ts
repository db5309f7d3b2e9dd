import type { NormalizedFilter } from "@memory/api";
import { filterSql, hasNarrowFilter } from "../filter-sql.js";
import type { StatementCache } from "../statement-cache.js";
import { SEARCH_COLUMNS, type SearchRow, searchRows } from "./search-row.js";

/**
 * The first `pool` entries that match `match` and pass the filter, in FTS5's rank order (BM25
 * over the whole file, ties by doc id), with their columns.
 *
 * Two ways to the same rows:
 * - Joined: FTS5 ranks every match, and rows are joined and filtered in rank order until
 *   `pool` pass. FTS5's own rank order (`ORDER BY rank`) runs a nested statement and a sorter
 *   over all matches.
 * - Ranked first: when the namespace is the only one in the file and the filter narrows
 *   nothing else, nearly every match passes. Then the best `pool` doc ids come from FTS5
 *   alone, ordered by `bm25()` and doc id under a bounded sort (about a third cheaper than
 *   `ORDER BY rank` on 400 to 10,000 entries), and only those rows are read and filtered.
 *   If fewer than `pool` of them pass while more matches exist (superseded entries), the
 *   joined statement answers instead.
 *
 * Both orders are the same: `rank` is `bm25()` (the table sets no other rank function), and
 * FTS5 orders equal ranks by doc id (test/ranked-matches.test.ts compares them row for row).
 */
export function rankedMatches(
  statements: StatementCache,
  match: string,
  filter: NormalizedFilter & { namespace: string },
  pool: number,
): SearchRow[] {
  const { where, params } = filterSql(filter);
  if (!hasNarrowFilter(filter) && namespaceIsAlone(statements, filter.namespace)) {
    const best = statements
      .get(
        `SELECT rowid FROM memories_fts WHERE memories_fts MATCH ?
         ORDER BY bm25(memories_fts), rowid LIMIT ?`,
      )
      .pluck()
      .all(match, pool) as number[];
    const rows = searchRows(
      statements.get(
        `SELECT ${SEARCH_COLUMNS} FROM json_each(?) AS best
         CROSS JOIN memories m ON m.doc_id = best.value WHERE ${where} ORDER BY best.key`,
      ),
      JSON.stringify(best),
      ...params,
    );
    if (rows.length === best.length || best.length < pool) return rows;
  }
  return searchRows(
    statements.get(
      `SELECT ${SEARCH_COLUMNS} FROM memories_fts JOIN memories m ON m.doc_id = memories_fts.rowid
       WHERE memories_fts MATCH ? AND ${where} ORDER BY rank LIMIT ?`,
    ),
    match,
    ...params,
    pool,
  );
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
