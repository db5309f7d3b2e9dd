import type { KeywordStageRequest, KeywordStatistics, QueryTerm } from "@memory/api";
import { cachedStatisticsNow, type KeywordStatisticsCache, selectingTerms } from "@memory/core";
import type { StatementCache } from "../statement-cache.js";
import type { KeywordIndex } from "./keyword-index.js";
import { matchExpression, rankedMatches } from "./ranked-matches.js";
import type { RecallRows } from "./recall-rows.js";
import { type SearchHit, toSearchHit } from "./search-row.js";

/**
 * BM25 statistics of one namespace: entry count and mean length from `namespace_stats`
 * (kept by triggers), and each term's document frequency within the namespace. When the
 * namespace is the only one in the file, FTS5's own vocabulary is that frequency (one lookup);
 * otherwise the term's matches are counted in the namespace.
 */
export function namespaceStatistics(
  statements: StatementCache,
  namespace: string,
  terms: readonly QueryTerm[],
): KeywordStatistics {
  const stats = statements
    .get(
      `SELECT documents, terms, EXISTS (SELECT 1 FROM namespace_stats
         WHERE namespace <> @namespace AND documents > 0) AS others
       FROM namespace_stats WHERE namespace = @namespace`,
    )
    .get({ namespace }) as { documents: number; terms: number; others: number } | undefined;
  const documents = stats?.documents ?? 0;
  if (documents <= 0)
    return { documents: 0, averageLength: 0, documentFrequency: terms.map(() => 0) };
  const others = stats!.others === 1;
  const vocabulary = statements.get("SELECT doc FROM memories_fts_vocab WHERE term = ?");
  const countAll = statements.get(
    "SELECT count(*) AS n FROM memories_fts WHERE memories_fts MATCH ?",
  );
  const countInNamespace = statements.get(
    `SELECT count(*) AS n FROM memories_fts JOIN memories m ON m.doc_id = memories_fts.rowid
     WHERE memories_fts MATCH ? AND m.namespace = ?`,
  );
  const documentFrequency = terms.map((term) => {
    if (!others && !term.prefix) {
      const row = vocabulary.get(term.text) as { doc: number } | undefined;
      return row?.doc ?? 0;
    }
    const match = matchExpression([term]);
    if (!others) return (countAll.get(match) as { n: number }).n;
    // A term absent from the whole file needs no namespace count.
    if (!term.prefix && vocabulary.get(term.text) === undefined) return 0;
    return (countInNamespace.get(match, namespace) as { n: number }).n;
  });
  return { documents, averageLength: stats!.terms / documents, documentFrequency };
}

/**
 * Entries matching any term under the whole filter, best first by FTS5's rank (ranked-matches.ts), plus statistics
 * (`cache`: counted once, then moved along the change log with `rows`, where the rows read are
 * kept; nothing is kept inside a caller's transaction). Synchronous: the stage runs in
 * one read transaction (`StatementCache.snapshot`).
 */
export function keywordStage(
  statements: StatementCache,
  cache: KeywordStatisticsCache,
  request: KeywordStageRequest,
  rows: RecallRows,
  version = statements.writeVersion(),
  index?: KeywordIndex,
): { hits: SearchHit[]; statistics: KeywordStatistics } {
  const { terms, filter, pool } = request;
  // Rows first: following the change log moves the cached statistics too.
  const kept = rows.at(statements, version, filter);
  const token = kept.keeping ? version : undefined;
  const statistics = cachedStatisticsNow(cache, token, filter.namespace, terms, (missing) =>
    namespaceStatistics(statements, filter.namespace, missing),
  );
  if (terms.length === 0 || pool <= 0 || statistics.documents === 0)
    return { hits: [], statistics };
  const selecting = selectingTerms(terms, statistics.documentFrequency, { pool });
  if (selecting.length === 0) return { hits: [], statistics };
  // The index follows the log with the kept rows: not used where nothing read may be kept.
  const found = rankedMatches(
    statements,
    selecting,
    filter,
    pool,
    kept,
    kept.keeping ? index : undefined,
  );
  return { hits: found.map(toSearchHit), statistics };
}
