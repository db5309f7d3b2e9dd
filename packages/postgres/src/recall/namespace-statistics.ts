import type { KeywordStatistics, QueryTerm } from "@memory/api";
import type { Database } from "../database.js";
import type { Tables } from "../filter-sql.js";
import { searchable, termQuery } from "../search-terms.js";
import type { LexemeShares } from "./lexeme-shares.js";

/**
 * A term's document frequency is counted exactly up to this many entries. Counting visits each
 * entry holding the term (the namespace and visibility are in the table, not in the GIN index),
 * so a common term cost 60 ms at 50k entries and 151-171 ms at 1M; past the cap the planner's
 * statistics estimate it (see {@link namespaceStatistics}). 1,000 keeps every term selection
 * that matters exact: the rarest terms select candidates until they cover 4 pools (160 entries
 * for the default limit), so a capped term selects only when every term of the query is capped.
 */
export const EXACT_FREQUENCY_CAP = 1000;

/**
 * Estimates apply only to a namespace holding at least this share of the table's entries: the
 * planner's statistics are the table's, and a term's share of another namespace says little of
 * its share of this one.
 */
export const ESTIMATE_MIN_SHARE = 0.9;

interface CountRow {
  documents: string;
  terms: string;
  /** The cap applied (null: the namespace is too small a share of the table, or no cap asked). */
  cap: string | null;
  df: string[] | null;
}

/**
 * A term that ANALYZE saw in at least this many times {@link EXACT_FREQUENCY_CAP} rows of the
 * table is not counted at all: its count would reach the cap anyway.
 */
export const SKIP_COUNT_FACTOR = 2;

/**
 * BM25 statistics of one namespace: entries and total terms from `namespace_stats` (kept by
 * triggers), and each term's document frequency. One statement counts the terms within the
 * namespace over the GIN index, each up to {@link EXACT_FREQUENCY_CAP}. A term that reaches it
 * (in a namespace of most of the table) takes instead the frequency ANALYZE measured for its
 * lexeme (`pg_stats.most_common_elems` of `memories.search`: the share of sampled rows holding
 * it, of 30,000 rows by default; {@link LexemeShares}) times the namespace's entries, kept
 * within [cap, entries]; a term ANALYZE saw in {@link SKIP_COUNT_FACTOR} x cap rows is not
 * counted first. A term without an estimate (a prefix term, a lexeme ANALYZE did not keep, a
 * table never analyzed, a namespace that is a small part of the table) is counted exactly, in a
 * second statement when it reached the cap. Terms that cannot be lexemes count 0.
 *
 * So a common term costs what a rare one does, and its frequency is an estimate: its sampling
 * error was 2-4% of the frequency at 100k entries (2,347 for 2,256, 10,800 for 10,768), which
 * moves the term's IDF by about 0.02-0.04 (a common term's IDF is below 4.6). Namespaces of
 * fewer than 1,000 entries, and so the conformance and parity tests and LoCoMo's
 * conversations, never reach the cap.
 */
export async function namespaceStatistics(
  db: Database,
  tables: Tables,
  shares: LexemeShares,
  namespace: string,
  terms: readonly QueryTerm[],
): Promise<KeywordStatistics> {
  const search = await shares.get(db, tables);
  const shareOf = (index: number) => {
    const term = terms[index]!;
    return term.prefix ? undefined : search.shares.get(term.text);
  };
  const frequencies = terms.map(() => 0);
  const counted: number[] = [];
  const skipped: number[] = [];
  terms.forEach((term, index) => {
    if (!searchable(term)) return;
    const share = shareOf(index);
    const common =
      share !== undefined && share * search.rows >= SKIP_COUNT_FACTOR * EXACT_FREQUENCY_CAP;
    (common ? skipped : counted).push(index);
  });
  const first = await countFrequencies(
    db,
    tables,
    namespace,
    pick(terms, counted),
    EXACT_FREQUENCY_CAP,
  );
  const documents = Number(first.documents);
  const cap = first.cap === null ? undefined : Number(first.cap);
  const estimate = (index: number) => {
    const share = shareOf(index);
    return share === undefined ? undefined : Math.min(documents, Math.round(share * documents));
  };
  const recount: number[] = [];
  counted.forEach((index, position) => {
    const df = Number(first.df?.[position] ?? 0);
    const estimated = cap !== undefined && df >= cap ? estimate(index) : undefined;
    if (cap === undefined || df < cap) frequencies[index] = df;
    else if (estimated === undefined) recount.push(index);
    else frequencies[index] = Math.max(cap, estimated);
  });
  for (const index of skipped) {
    const estimated = estimate(index);
    if (documents === 0) continue;
    if (cap !== undefined && estimated !== undefined && estimated >= cap)
      frequencies[index] = estimated;
    else recount.push(index);
  }
  if (recount.length > 0) {
    const exact = await countFrequencies(db, tables, namespace, pick(terms, recount), null);
    recount.forEach((index, position) => {
      frequencies[index] = Number(exact.df?.[position] ?? 0);
    });
  }
  return {
    documents,
    averageLength: documents > 0 ? Number(first.terms) / documents : 0,
    documentFrequency: frequencies,
  };
}

const pick = <T>(list: readonly T[], indexes: readonly number[]): T[] =>
  indexes.map((index) => list[index]!);

/**
 * Entries, terms and each term's frequency in the namespace, all terms in one statement; with
 * `cap`, counted up to it when the namespace holds {@link ESTIMATE_MIN_SHARE} of the table
 * (`LIMIT NULL` counts everything).
 */
async function countFrequencies(
  db: Database,
  tables: Tables,
  namespace: string,
  terms: readonly QueryTerm[],
  cap: number | null,
): Promise<CountRow> {
  const result = await db.query<CountRow>(
    "recall",
    `SELECT coalesce(s.documents, 0) AS documents, coalesce(s.terms, 0) AS terms, k.cap,
       CASE WHEN coalesce(s.documents, 0) > 0 THEN ARRAY(
         SELECT (SELECT count(*) FROM (
                   SELECT 1 FROM ${tables.memories} m
                   WHERE m.namespace = n.namespace AND m.search @@ q.query LIMIT k.cap) AS c)
         FROM unnest($2::tsquery[]) WITH ORDINALITY AS q(query, i) ORDER BY q.i) END AS df
     FROM (SELECT $1::text AS namespace) AS n
     LEFT JOIN ${tables.namespaceStats} s ON s.namespace = n.namespace
     CROSS JOIN LATERAL (SELECT CASE WHEN s.documents >= $4::float8 *
         (SELECT sum(t.documents) FROM ${tables.namespaceStats} t) THEN $3::bigint END AS cap) AS k`,
    [namespace, terms.map(termQuery), cap, ESTIMATE_MIN_SHARE],
  );
  return result.rows[0]!;
}
