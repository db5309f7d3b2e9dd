import type { QueryTerm } from "@memory/api";

/**
 * Entries an OR query may select before its most common terms stop selecting. Full-text
 * engines score every entry holding any term of an OR query, so one term in 50,000 entries
 * costs that many rows per recall, for entries that rank low anyway (low IDF). Every term still
 * counts in the engine's BM25 of the selected entries.
 */
export const KEYWORD_POSTINGS_BUDGET = 20_000;

/**
 * How many times the candidate pool the selecting terms' postings must cover before the more
 * common terms stop selecting. BM25 weighs a term by its rarity, so once the rarer terms hold
 * several pools' worth of entries, an entry that only a more common term selects ranks below
 * them and is seldom in the pool; scoring all its term's postings is the bulk of the cost (a
 * speaker's name is in half of a conversation's turns). 4 left the LoCoMo dev answers identical
 * where 1 did not (docs/benchmarks.md, 2026-11-28).
 */
export const KEYWORD_POOL_COVER = 4;

/**
 * The terms that select entries: the rarest first, until their document frequencies (in the
 * namespace) cover {@link KEYWORD_POOL_COVER} times `pool` or the next term would pass the
 * budget; at least one. Terms absent from the namespace select nothing and are left out. The
 * same rule on every backend. Without `pool`, only the budget stops.
 */
export function selectingTerms(
  terms: readonly QueryTerm[],
  frequency: readonly number[],
  options: { pool?: number; budget?: number } = {},
): QueryTerm[] {
  const budget = options.budget ?? KEYWORD_POSTINGS_BUDGET;
  const enough =
    options.pool === undefined ? Number.POSITIVE_INFINITY : options.pool * KEYWORD_POOL_COVER;
  const present = terms
    .map((term, index) => ({ term, df: frequency[index] ?? 0 }))
    .filter((item) => item.df > 0)
    .sort((a, b) => a.df - b.df);
  const kept: QueryTerm[] = [];
  let used = 0;
  for (const { term, df } of present) {
    if (kept.length > 0 && (used >= enough || used + df > budget)) break;
    kept.push(term);
    used += df;
  }
  return kept;
}
