import type { MemoryEntry, RecallExplain, SearchMode } from "../types/memory-entry.js";
import { ageInDays, DEFAULT_HALF_LIFE_DAYS, decayFactor } from "./decay.js";
import type { FusedCandidate } from "./fusion.js";

/** What the final ranking step needs to know about one candidate's stored entry. */
export interface RankableEntry {
  entry: MemoryEntry;
  candidate: FusedCandidate;
}

export interface FinalizeOptions {
  mode: SearchMode;
  source: RecallExplain["source"];
  strategy?: RecallExplain["strategy"];
  limit: number;
  minScore?: number;
  includeSuperseded?: boolean;
  halfLifeDays?: number;
  now?: number;
  earlyReturn?: boolean;
  degraded?: string;
}

/**
 * The last recall steps, identical on every backend (DESIGN section 4, step 6): time decay for
 * non-core entries, superseded entries dropped unless asked for, `minScore`, then `limit`. Each
 * result gets its `score` and `explain`.
 */
export function finalizeRecall(
  items: readonly RankableEntry[],
  options: FinalizeOptions,
): MemoryEntry[] {
  if (options.limit <= 0) return [];
  const now = options.now ?? Date.now();
  const results: MemoryEntry[] = [];
  for (const { entry, candidate } of items) {
    if (entry.supersededBy !== undefined && !options.includeSuperseded) continue;
    const decay = decayFactor(
      entry.category,
      ageInDays(entry.updatedAt, now),
      options.halfLifeDays ?? DEFAULT_HALF_LIFE_DAYS,
    );
    const score = candidate.fused * decay;
    if (options.minScore !== undefined && score < options.minScore) continue;
    const explain: RecallExplain = {
      mode: options.mode,
      source: options.source,
      fused: candidate.fused,
      decay,
    };
    if (options.strategy !== undefined) explain.strategy = options.strategy;
    if (candidate.keywordRank !== undefined) explain.keywordRank = candidate.keywordRank;
    if (candidate.keywordScore !== undefined) explain.keywordScore = candidate.keywordScore;
    if (candidate.vectorRank !== undefined) explain.vectorRank = candidate.vectorRank;
    if (candidate.cosine !== undefined) explain.cosine = candidate.cosine;
    if (entry.importance !== undefined) explain.importance = entry.importance;
    if (options.earlyReturn) explain.earlyReturn = true;
    if (options.degraded !== undefined) explain.degraded = options.degraded;
    results.push({ ...entry, score, explain });
  }
  // "Most recent entries" keep their recency order; searches are ranked by score.
  if (options.source !== "recent")
    results.sort(
      (a, b) =>
        b.score! - a.score! || (a.updatedAt < b.updatedAt ? 1 : a.updatedAt > b.updatedAt ? -1 : 0),
    );
  return results.slice(0, options.limit);
}
