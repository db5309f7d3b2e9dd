import type { KeywordStageResult, QueryTerm, RecallStages } from "@memory/api";
import type { RecallRequest } from "./recall-request.js";
import { KeywordScorer } from "./relevance.js";

/**
 * Early return (off by default): the vector stage is skipped when the keyword stage alone
 * fills the limit and its best hit is at least `fts_early_return_score` relevant.
 * Otherwise hybrid falls through to the vector stage.
 */
export function keywordDecisive(
  keyword: KeywordStageResult,
  terms: readonly QueryTerm[],
  pool: number,
  limit: number,
  earlyReturnScore: number,
): boolean {
  if (terms.length === 0) return false;
  const scorer = new KeywordScorer(terms, keyword.statistics);
  const relevances = keyword.hits
    .map((hit) => scorer.relevance(scorer.bm25(hit.terms)))
    .filter((value) => value > 0)
    .sort((a, b) => b - a)
    .slice(0, pool);
  return relevances.length >= limit && (relevances[0] ?? 0) >= earlyReturnScore;
}

/** The query embedding, or why there is none (the recall then answers from keywords). */
export async function embedQuery(
  stages: RecallStages,
  request: Pick<RecallRequest, "query" | "signal">,
): Promise<{ vector: Float32Array } | { failure: string }> {
  try {
    const vector = await stages.embedQuery(request.query, request.signal);
    for (let i = 0; i < vector.length; i++) {
      if (!Number.isFinite(vector[i]!)) {
        return {
          failure:
            "the embedding provider returned a non-finite query vector: answered from keywords",
        };
      }
    }
    return { vector };
  } catch (error) {
    if (request.signal?.aborted) throw error;
    const message = error instanceof Error ? error.message : String(error);
    return { failure: `the embedding provider failed (${message}): answered from keywords` };
  }
}
