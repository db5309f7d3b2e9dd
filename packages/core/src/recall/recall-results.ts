import type { MemoryEntry, RecallExplain, RecallGraphExplain, SearchMode } from "@memory/api";
import { ageInDays, decayFactor } from "../algorithms/decay.js";
import { digits, type RecallTraceCollector } from "./recall-trace.js";

/** One candidate with every part of its score measured. */
export interface ScoredCandidate {
  entry: MemoryEntry;
  /** Relevance before decay, in [0, 1]. */
  relevance: number;
  /** Rank-fusion value (`rrf` strategy only): orders results, never thresholds them. */
  rrf?: number;
  keywordRank?: number;
  keywordScore?: number;
  keywordRelevance?: number;
  vectorRank?: number;
  cosine?: number;
  vectorRelevance?: number;
  /** Question-word factor applied to the relevance (absent when 1). */
  intent?: number;
  /** Relevance added by conversational context (absent when 0). */
  context?: number;
  /** Relevance added by graph expansion, and through which edges (absent when none). */
  graph?: RecallGraphExplain;
  /** Relevance added for being pinned (absent when none). */
  pinBoost?: number;
}

export interface FinalizeOptions {
  mode: SearchMode;
  source: RecallExplain["source"];
  strategy?: RecallExplain["strategy"];
  limit: number;
  minScore: number;
  includeSuperseded: boolean;
  halfLifeDays: number;
  now: number;
  earlyReturn?: boolean;
  degraded?: string;
  /** `pin_boost`: relevance added to a pinned entry's (capped at 1); not for "recent". */
  pinBoost?: number;
  /** How much longer each key's half-life is for being used (`usage_half_life_factor`). */
  halfLifeFactors?: ReadonlyMap<string, number>;
}

/** Deterministic order for equal scores: by key (unique in a namespace), then namespace. */
export function compareKeys(a: MemoryEntry, b: MemoryEntry): number {
  if (a.key !== b.key) return a.key < b.key ? -1 : 1;
  return a.namespace < b.namespace ? -1 : a.namespace > b.namespace ? 1 : 0;
}

interface Kept {
  candidate: ScoredCandidate;
  decay: number;
  score: number;
  order: number;
}

/**
 * Best first; equal scores (e.g. two vector parts both clamped to 1) fall back to the raw
 * parts, cosine then BM25, and only then to the key, so ties never depend on storage order.
 */
function byOrder(a: Kept, b: Kept): number {
  return (
    b.order - a.order ||
    (b.candidate.cosine ?? -2) - (a.candidate.cosine ?? -2) ||
    (b.candidate.keywordScore ?? 0) - (a.candidate.keywordScore ?? 0) ||
    compareKeys(a.candidate.entry, b.candidate.entry)
  );
}

/** The time-decay factor of an entry (core entries never decay: their timestamp is not parsed). */
function decayOf(entry: MemoryEntry, options: FinalizeOptions): number {
  if (entry.category === "core") return 1;
  const stretch = options.halfLifeFactors?.get(entry.key) ?? 1;
  return decayFactor(
    entry.category,
    ageInDays(entry.updatedAt, options.now),
    options.halfLifeDays * stretch,
  );
}

/** A pinned entry's relevance, raised by `pin_boost` (searches only: "recent" is not ranked). */
function pinned(candidate: ScoredCandidate, options: FinalizeOptions): ScoredCandidate {
  const boost = options.pinBoost ?? 0;
  if (!candidate.entry.pinned || boost <= 0 || options.source === "recent") return candidate;
  const relevance = Math.min(1, candidate.relevance + boost);
  return { ...candidate, relevance, pinBoost: relevance - candidate.relevance };
}

/**
 * The last steps, the same for every source: entity entries dropped unless their category is
 * asked for, superseded entries dropped unless asked for, time
 * decay for non-core entries (score = relevance x decay), `minScore`, order, `limit`. Searches
 * are ordered by score (or, with `rrf`, by rank fusion x decay); "recent" keeps its order.
 * A `trace` (explainRecall only) is told every drop, with its reason, where it happens.
 */
export function finalizeResults(
  candidates: readonly ScoredCandidate[],
  options: FinalizeOptions,
  trace?: RecallTraceCollector,
): MemoryEntry[] {
  if (options.limit <= 0) return [];
  const kept: Kept[] = [];
  for (const found of candidates) {
    const candidate = pinned(found, options);
    const { entry } = candidate;
    if (entry.supersededBy !== undefined && !options.includeSuperseded) {
      if (trace) {
        const decay = decayOf(entry, options);
        trace.drop(
          resultOf(candidate, decay, candidate.relevance * decay, options),
          "superseded",
          `superseded by ${JSON.stringify(entry.supersededBy)} (includeSuperseded is off)`,
        );
      }
      continue;
    }
    const decay = decayOf(entry, options);
    const score = candidate.relevance * decay;
    if (score < options.minScore) {
      trace?.drop(
        resultOf(candidate, decay, score, options),
        "under_threshold",
        `score ${digits(score)} (relevance ${digits(candidate.relevance)} x decay ${digits(decay)}) < minScore ${digits(options.minScore)}`,
      );
      continue;
    }
    kept.push({
      candidate,
      decay,
      score,
      order: candidate.rrf !== undefined ? candidate.rrf * decay : score,
    });
  }
  if (options.source !== "recent") kept.sort(byOrder);
  if (trace) {
    for (let index = options.limit; index < kept.length; index++) {
      const { candidate, decay, score } = kept[index]!;
      trace.drop(
        resultOf(candidate, decay, score, options),
        "over_limit",
        `ranked ${index + 1}, limit ${options.limit} (score ${digits(score)})`,
      );
    }
  }
  // Results (and their explain) are built for the survivors only.
  return kept
    .slice(0, options.limit)
    .map(({ candidate, decay, score }) => resultOf(candidate, decay, score, options));
}

/** A candidate as a result: the entry with its score and every part of it in `explain`. */
function resultOf(
  candidate: ScoredCandidate,
  decay: number,
  score: number,
  options: FinalizeOptions,
): MemoryEntry {
  const explain: RecallExplain = {
    mode: options.mode,
    source: options.source,
    fused: candidate.relevance,
    decay,
  };
  if (options.strategy !== undefined) explain.strategy = options.strategy;
  if (candidate.keywordRank !== undefined) explain.keywordRank = candidate.keywordRank;
  if (candidate.keywordScore !== undefined) explain.keywordScore = candidate.keywordScore;
  if (candidate.keywordRelevance !== undefined)
    explain.keywordRelevance = candidate.keywordRelevance;
  if (candidate.vectorRank !== undefined) explain.vectorRank = candidate.vectorRank;
  if (candidate.cosine !== undefined) explain.cosine = candidate.cosine;
  if (candidate.vectorRelevance !== undefined) explain.vectorRelevance = candidate.vectorRelevance;
  if (candidate.rrf !== undefined) explain.rrf = candidate.rrf;
  if (candidate.intent !== undefined) explain.intent = candidate.intent;
  if (candidate.context !== undefined) explain.context = candidate.context;
  if (candidate.graph !== undefined) explain.graph = candidate.graph;
  if (candidate.entry.importance !== undefined) explain.importance = candidate.entry.importance;
  const usage = usageExplain(candidate, options);
  if (usage) explain.usage = usage;
  if (options.earlyReturn) explain.earlyReturn = true;
  if (options.degraded !== undefined) explain.degraded = options.degraded;
  const superseded = supersededExplain(candidate.entry);
  if (superseded) explain.superseded = superseded;
  return { ...candidate.entry, score, explain };
}

/** What pins and use did to the result (`explain.usage`); undefined when nothing. */
function usageExplain(
  candidate: ScoredCandidate,
  options: FinalizeOptions,
): RecallExplain["usage"] {
  const stretch = options.halfLifeFactors?.get(candidate.entry.key);
  if (!candidate.entry.pinned && stretch === undefined) return undefined;
  const usage: NonNullable<RecallExplain["usage"]> = {};
  if (candidate.entry.pinned) usage.pinned = true;
  if (candidate.pinBoost !== undefined) usage.boost = candidate.pinBoost;
  if (stretch !== undefined && candidate.entry.category !== "core") usage.halfLifeFactor = stretch;
  return usage;
}

/** By which key and why a superseded result was superseded (its `supersessionRecord`). */
function supersededExplain(entry: MemoryEntry): RecallExplain["superseded"] {
  if (entry.supersededBy === undefined) return undefined;
  const superseded: NonNullable<RecallExplain["superseded"]> = { by: entry.supersededBy };
  const record = entry.supersessionRecord;
  if (record?.by !== entry.supersededBy) return superseded;
  superseded.decidedBy = record.decidedBy;
  if (record.rule !== undefined) superseded.rule = record.rule;
  if (record.reason !== undefined) superseded.reason = record.reason;
  return superseded;
}
