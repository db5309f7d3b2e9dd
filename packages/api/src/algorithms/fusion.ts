/** A keyword (BM25) hit: raw score, higher is better. Lists are given best first. */
export interface KeywordHit {
  id: string;
  score: number;
}

/** A vector hit: cosine similarity. Lists are given best first. */
export interface VectorHit {
  id: string;
  cosine: number;
}

/** One candidate after fusion, with the parts of its score. */
export interface FusedCandidate {
  id: string;
  /** Fused score in 0..1 (see {@link fuseRrf} and {@link fuseWeighted} for the scale). */
  fused: number;
  keywordRank?: number;
  keywordScore?: number;
  vectorRank?: number;
  cosine?: number;
}

/** RRF constant from the original paper and the seed systems. */
export const DEFAULT_RRF_K = 60;
/** Weights of the weighted merge: vector 0.7, keyword 0.3. */
export const DEFAULT_VECTOR_WEIGHT = 0.7;
export const DEFAULT_KEYWORD_WEIGHT = 0.3;

/** One list's RRF contribution for a 0-based rank: `1 / (k + rank + 1)`. */
export function rrfContribution(rank: number, k: number = DEFAULT_RRF_K): number {
  return 1 / (k + rank + 1);
}

function collect(keyword: readonly KeywordHit[], vector: readonly VectorHit[]) {
  const byId = new Map<string, FusedCandidate>();
  keyword.forEach((hit, rank) => {
    if (!byId.has(hit.id))
      byId.set(hit.id, { id: hit.id, fused: 0, keywordRank: rank, keywordScore: hit.score });
  });
  vector.forEach((hit, rank) => {
    const existing = byId.get(hit.id);
    if (!existing) byId.set(hit.id, { id: hit.id, fused: 0, vectorRank: rank, cosine: hit.cosine });
    else if (existing.vectorRank === undefined) {
      existing.vectorRank = rank;
      existing.cosine = hit.cosine;
    }
  });
  return [...byId.values()];
}

function sortFused(candidates: FusedCandidate[]): FusedCandidate[] {
  // Ties broken by id so every backend returns the same order for the same inputs.
  return candidates.sort((a, b) => b.fused - a.fused || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/**
 * Reciprocal Rank Fusion: each list contributes `1 / (k + rank + 1)` (rank from 0). The sum is
 * divided by the best score attainable from the lists that are non-empty (rank 0 in each), so
 * `fused` is in 0..1 and comparable across queries: 1 means "first in every list".
 */
export function fuseRrf(
  keyword: readonly KeywordHit[],
  vector: readonly VectorHit[],
  k: number = DEFAULT_RRF_K,
): FusedCandidate[] {
  const lists = (keyword.length > 0 ? 1 : 0) + (vector.length > 0 ? 1 : 0);
  if (lists === 0) return [];
  const best = lists * rrfContribution(0, k);
  const candidates = collect(keyword, vector);
  for (const candidate of candidates) {
    let sum = 0;
    if (candidate.keywordRank !== undefined) sum += rrfContribution(candidate.keywordRank, k);
    if (candidate.vectorRank !== undefined) sum += rrfContribution(candidate.vectorRank, k);
    candidate.fused = sum / best;
  }
  return sortFused(candidates);
}

/**
 * Weighted merge: `vectorWeight * cosine + keywordWeight * bm25 / best_bm25_in_list`. A
 * candidate missing from one list gets 0 for that part. Negative cosines count as 0.
 */
export function fuseWeighted(
  keyword: readonly KeywordHit[],
  vector: readonly VectorHit[],
  weights: { vector?: number; keyword?: number } = {},
): FusedCandidate[] {
  const vectorWeight = weights.vector ?? DEFAULT_VECTOR_WEIGHT;
  const keywordWeight = weights.keyword ?? DEFAULT_KEYWORD_WEIGHT;
  const bestKeyword = keyword.reduce((best, hit) => Math.max(best, hit.score), 0);
  const candidates = collect(keyword, vector);
  for (const candidate of candidates) {
    const keywordPart =
      candidate.keywordScore !== undefined && bestKeyword > 0
        ? candidate.keywordScore / bestKeyword
        : 0;
    const vectorPart = Math.max(0, candidate.cosine ?? 0);
    candidate.fused = vectorWeight * vectorPart + keywordWeight * keywordPart;
  }
  return sortFused(candidates);
}

/**
 * Absolute relevance of a raw BM25 score, for keyword-only results: `raw / (raw + 1)`. It is
 * not "1.0 for whatever ranked first": the same match scores the same whatever else is in the
 * list, so `minScore` and the early-return threshold keep a stable meaning.
 */
export function keywordRelevance(rawScore: number): number {
  if (!(rawScore > 0)) return 0;
  return rawScore / (rawScore + 1);
}

/** Keyword-only ranking: candidates in BM25 order, each scored with {@link keywordRelevance}. */
export function keywordOnly(keyword: readonly KeywordHit[]): FusedCandidate[] {
  return keyword.map((hit, rank) => ({
    id: hit.id,
    fused: keywordRelevance(hit.score),
    keywordRank: rank,
    keywordScore: hit.score,
  }));
}

/** Vector-only ranking: candidates in cosine order, scored by their cosine (negative -> 0). */
export function vectorOnly(vector: readonly VectorHit[]): FusedCandidate[] {
  return vector.map((hit, rank) => ({
    id: hit.id,
    fused: Math.max(0, hit.cosine),
    vectorRank: rank,
    cosine: hit.cosine,
  }));
}
