/** RRF constant from the original paper and the seed systems (`rrf_k`). */
export const DEFAULT_RRF_K = 60;

/**
 * One list's Reciprocal Rank Fusion contribution for a 0-based rank: `1 / (k + rank + 1)`.
 * With `merge_strategy = "rrf"` the engine orders hybrid results by the sum over both lists;
 * it never becomes the score (ranks say nothing about how well anything matches).
 */
export function rrfContribution(rank: number, k: number = DEFAULT_RRF_K): number {
  return 1 / (k + rank + 1);
}
