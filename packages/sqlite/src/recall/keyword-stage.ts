import {
  buildFts5Query,
  escapeLike,
  extractSearchTerms,
  likeFallbackKeywords,
  type NormalizedFilter,
  type SearchTerm,
} from "@memory/api";
import { filterSql } from "../filter-sql.js";
import { ENTRY_COLUMNS, type EntryRow } from "../row-mapping.js";
import type { StatementCache } from "../statement-cache.js";

export interface KeywordCandidate {
  row: EntryRow;
  /** Raw BM25, higher is better (FTS5's negative bm25() negated). */
  score: number;
}

/**
 * Documents an OR query may touch before its most common terms are dropped. FTS5 scores every
 * document that matches any term, so one stop word ("the") in a 100k store costs tens of ms;
 * those documents would rank low anyway (low IDF) unless nothing rarer matches.
 */
export const KEYWORD_POSTINGS_BUDGET = 20_000;

// Column weights of bm25(): key, content, CJK bigrams. A key is a short, chosen label: a hit
// there says more than one word in a long text.
const BM25 = "bm25(memories_fts, 2.0, 1.0, 1.0)";

/** Keeps the rarest terms whose document frequencies add up to the budget (at least one term). */
export function rareTermsFirst(statements: StatementCache, terms: SearchTerm[]): SearchTerm[] {
  if (terms.length <= 1 || terms.some((term) => term.prefix)) return terms;
  const frequency = statements.get("SELECT doc FROM memories_fts_vocab WHERE term = ?");
  const withDf = terms.map((term) => {
    const row = frequency.get(term.text) as { doc: number } | undefined;
    return { term, df: row?.doc ?? 0 };
  });
  const total = withDf.reduce((sum, item) => sum + item.df, 0);
  if (total <= KEYWORD_POSTINGS_BUDGET) return terms;
  withDf.sort((a, b) => a.df - b.df);
  const kept: SearchTerm[] = [];
  let used = 0;
  for (const { term, df } of withDf) {
    if (kept.length > 0 && used + df > KEYWORD_POSTINGS_BUDGET) break;
    kept.push(term);
    used += df;
  }
  return kept;
}

/** BM25 candidates for the query among entries matching `filter` (the filter is part of the query). */
export function keywordSearch(
  statements: StatementCache,
  query: string,
  pool: number,
  filter: NormalizedFilter,
): KeywordCandidate[] {
  const terms = extractSearchTerms(query);
  if (terms.length === 0 || pool <= 0) return [];
  const match = buildFts5Query(query, { terms: rareTermsFirst(statements, terms) });
  if (match === null) return [];
  const { where, params } = filterSql(filter);
  const rows = statements
    .get(
      `SELECT ${ENTRY_COLUMNS}, -${BM25} AS score FROM memories_fts
       JOIN memories m ON m.doc_id = memories_fts.rowid
       WHERE memories_fts MATCH ? AND ${where} ORDER BY ${BM25} LIMIT ?`,
    )
    .all(match, ...params, pool) as (EntryRow & { score: number })[];
  return rows.map((row) => ({ row, score: row.score }));
}

/** Substring search over up to 8 keywords in content and key, escaped for LIKE. */
export function likeSearch(
  statements: StatementCache,
  query: string,
  pool: number,
  filter: NormalizedFilter,
): { row: EntryRow; matched: number; keywords: number }[] {
  const keywords = likeFallbackKeywords(query);
  if (keywords.length === 0 || pool <= 0) return [];
  const test = "(m.content LIKE ? ESCAPE '\\' OR m.key LIKE ? ESCAPE '\\')";
  const tests = keywords.map(() => test);
  const patterns = keywords.flatMap((word) => {
    const pattern = `%${escapeLike(word)}%`;
    return [pattern, pattern];
  });
  const { where, params } = filterSql(filter);
  const rows = statements
    .get(
      `SELECT ${ENTRY_COLUMNS}, (${tests.join(" + ")}) AS matched FROM memories m
       WHERE ${where} AND (${tests.join(" OR ")}) ORDER BY matched DESC, m.updated_at DESC LIMIT ?`,
    )
    .all(...patterns, ...params, ...patterns, pool) as (EntryRow & { matched: number })[];
  return rows.map((row) => ({ row, matched: row.matched, keywords: keywords.length }));
}
