import type {
  IndexedEntry,
  KeywordStageResult,
  RecallStages,
  VectorCalibration,
  VectorStageHit,
} from "@memory/api";
import { type IntentWeights, intentFactor, type QueryIntent } from "./query-intent.js";
import { compareKeys, type ScoredCandidate } from "./recall-results.js";
import { combinedRelevance, type KeywordScorer, vectorRelevance } from "./relevance.js";

/** A candidate with the index terms its keyword score is computed from. */
export type Candidate = ScoredCandidate & { terms: string };

/** Keyword hits ranked by namespace-local BM25 (ties by key): the best `pool` become candidates. */
export function keywordCandidates(
  keyword: KeywordStageResult,
  scorer: KeywordScorer,
  pool: number,
): Map<string, Candidate> {
  const candidates = new Map<string, Candidate>();
  const ranked: { hit: IndexedEntry; bm25: number }[] = [];
  for (const hit of keyword.hits) {
    const bm25 = scorer.bm25(hit.terms);
    if (bm25 > 0) ranked.push({ hit, bm25 });
  }
  ranked.sort((a, b) => b.bm25 - a.bm25 || compareKeys(a.hit.entry, b.hit.entry));
  const count = Math.min(ranked.length, pool);
  for (let rank = 0; rank < count; rank++) {
    const { hit, bm25 } = ranked[rank]!;
    candidates.set(hit.entry.id, {
      entry: hit.entry,
      terms: hit.terms,
      relevance: 0,
      keywordRank: rank,
      keywordScore: bm25,
      keywordRelevance: scorer.relevance(bm25),
    });
  }
  return candidates;
}

/** Vector hits joined into the candidates, by cosine (ties by key). */
export function addVectorHits(
  candidates: Map<string, Candidate>,
  vectorHits: readonly VectorStageHit[],
  calibration: VectorCalibration,
): void {
  const sorted = [...vectorHits].sort(
    (a, b) => b.cosine - a.cosine || compareKeys(a.entry, b.entry),
  );
  // A neighbour at cosine 0 or below is only the nearest of unrelated entries: it keeps its
  // cosine (explain) but gets no rank, so rank fusion (`rrf`) counts it in no list.
  let rank = 0;
  for (const hit of sorted) {
    const existing = candidates.get(hit.entry.id);
    const parts = {
      ...(hit.cosine > 0 ? { vectorRank: rank++ } : {}),
      cosine: hit.cosine,
      vectorRelevance: vectorRelevance(hit.cosine, calibration),
    };
    if (existing) Object.assign(existing, parts);
    else
      candidates.set(hit.entry.id, {
        entry: hit.entry,
        terms: hit.terms,
        relevance: 0,
        ...parts,
      });
  }
}

/** Exact cosines of `candidates` from the stored vectors (absent: the entry has none). */
export async function measureCosines(
  candidates: readonly Candidate[],
  stages: RecallStages,
  queryVector: Float32Array,
  calibration: VectorCalibration,
): Promise<void> {
  if (candidates.length === 0) return;
  const cosines = await stages.cosines(
    candidates.map((c) => c.entry.id),
    queryVector,
  );
  for (const candidate of candidates) {
    const cosine = cosines.get(candidate.entry.id);
    if (cosine === undefined) continue;
    candidate.cosine = cosine;
    candidate.vectorRelevance = vectorRelevance(cosine, calibration);
  }
}

/** Keyword parts of `candidates` from their index terms. */
export function measureKeyword(candidates: Iterable<Candidate>, scorer: KeywordScorer): void {
  for (const candidate of candidates) {
    const bm25 = scorer.bm25(candidate.terms);
    candidate.keywordScore = bm25;
    candidate.keywordRelevance = scorer.relevance(bm25);
  }
}

/** How one recall turns a candidate's parts into its relevance. */
export interface RelevanceRule {
  hybrid: boolean;
  keywordOnly: boolean;
  /** Absent: the query has no search terms (no keyword part). */
  scorer: KeywordScorer | undefined;
  weights: { keyword: number; vector: number };
  intent: QueryIntent;
  intentWeights: IntentWeights;
}

/** Sets the candidate's own relevance (before context): its parts, fused or alone, times intent. */
export function applyRelevance(candidate: ScoredCandidate, rule: RelevanceRule): void {
  const base = rule.hybrid
    ? combinedRelevance(
        {
          keyword: rule.scorer ? (candidate.keywordRelevance ?? 0) : undefined,
          vector: candidate.vectorRelevance,
        },
        rule.weights,
      )
    : !rule.keywordOnly
      ? (candidate.vectorRelevance ?? 0)
      : (candidate.keywordRelevance ?? 0);
  const factor = intentFactor(rule.intent, candidate.entry.content, rule.intentWeights);
  if (factor !== 1) candidate.intent = factor;
  candidate.relevance = Math.min(1, base * factor);
}
