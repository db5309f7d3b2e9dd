import type { QueryTerm } from "@memory/api";

/**
 * Entries an OR query may select before its most common terms stop selecting. Full-text
 * engines score every entry holding any term of an OR query, so one term in 50,000 entries
 * costs that many rows per recall, for entries that rank low anyway (low IDF). Every term still
 * counts in the engine's BM25 of the selected entries.
 */
export const KEYWORD_POSTINGS_BUDGET = 20_000;

/**
 * The terms that select entries: the rarest first while their document frequencies (in the
 * namespace) add up to the budget, at least one. Terms absent from the namespace select
 * nothing and are left out. The same rule on every backend.
 */
export function selectingTerms(
  terms: readonly QueryTerm[],
  frequency: readonly number[],
  budget = KEYWORD_POSTINGS_BUDGET,
): QueryTerm[] {
  const present = terms
    .map((term, index) => ({ term, df: frequency[index] ?? 0 }))
    .filter((item) => item.df > 0)
    .sort((a, b) => a.df - b.df);
  const kept: QueryTerm[] = [];
  let used = 0;
  for (const { term, df } of present) {
    if (kept.length > 0 && used + df > budget) break;
    kept.push(term);
    used += df;
  }
  return kept;
}
