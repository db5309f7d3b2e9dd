import type {
  IndexedEntry,
  KeywordStageRequest,
  KeywordStageResult,
  KeywordStatistics,
} from "@memory/api";
import {
  BM25_B,
  BM25_K1,
  cachedStatistics,
  inverseDocumentFrequency,
  type KeywordStatisticsCache,
  selectingTerms,
} from "@memory/core";
import type { Database } from "../database.js";
import { INDEXED_COLUMNS, type IndexedRow, rowToIndexed } from "../entry-row.js";
import { filterConditions, type Tables, whereClause } from "../filter-sql.js";
import { anyTermQuery, searchable, termQuery } from "../search-terms.js";
import { Params } from "../sql.js";
import type { LexemeShares } from "./lexeme-shares.js";
import { namespaceStatistics } from "./namespace-statistics.js";

/**
 * The best `pool` entries under the whole filter that hold a selecting term. They are ranked
 * in SQL by BM25 as if every matched term occurred once (the namespace's IDF of each matched
 * term, the entry's length against the namespace's mean), the engine's own formula without
 * term frequencies, which a tsvector of lexemes does not hold; the engine then scores the pool
 * exactly.
 */
export async function keywordHits(
  db: Database,
  tables: Tables,
  request: KeywordStageRequest,
  statistics: KeywordStatistics,
): Promise<IndexedEntry[]> {
  const selecting = selectingTerms(request.terms, statistics.documentFrequency, {
    pool: request.pool,
  });
  if (selecting.length === 0 || request.pool <= 0) return [];
  const params = new Params();
  const weights: string[] = [];
  request.terms.forEach((term, index) => {
    const df = statistics.documentFrequency[index] ?? 0;
    if (df === 0 || !searchable(term)) return;
    const idf = inverseDocumentFrequency(statistics.documents, df);
    weights.push(
      `${params.add(idf)}::float8 * (m.search @@ ${params.add(termQuery(term))}::tsquery)::int`,
    );
  });
  const average = statistics.averageLength > 0 ? statistics.averageLength : 1;
  // tf = 1 in BM25: idf x (k1 + 1) / (1 + k1 x (1 - b + b x length / average)); the constant
  // numerator factor does not change the order.
  const base = params.add(1 + BM25_K1 * (1 - BM25_B));
  const slope = params.add((BM25_K1 * BM25_B) / average);
  const where = filterConditions(request.filter, params);
  where.push(`m.search @@ ${params.add(anyTermQuery(selecting))}::tsquery`);
  const result = await db.query<IndexedRow>(
    "recall",
    `SELECT ${INDEXED_COLUMNS} FROM ${tables.memories} m ${whereClause(where)}
     ORDER BY (${weights.join(" + ")}) / (${base}::float8 + ${slope}::float8 * m.term_count) DESC,
       m.updated_at DESC, m.id
     LIMIT ${params.add(request.pool)}`,
    params.values,
  );
  return result.rows.map(rowToIndexed);
}

/**
 * The keyword stage: statistics first (their IDF ranks the selection), then the hits. The
 * statistics are counted once per change token (`token`, read before counting), and a common
 * term's count stops at a cap (namespace-statistics.ts).
 */
export async function keywordStage(
  db: Database,
  tables: Tables,
  request: KeywordStageRequest,
  cache: {
    statistics: KeywordStatisticsCache;
    token: () => Promise<unknown>;
    shares: LexemeShares;
  },
): Promise<KeywordStageResult> {
  const { namespace } = request.filter;
  const statistics = await cachedStatistics(
    cache.statistics,
    await cache.token(),
    namespace,
    request.terms,
    (missing) => namespaceStatistics(db, tables, cache.shares, namespace, missing),
  );
  const hits = await keywordHits(db, tables, request, statistics);
  return { hits, statistics };
}
