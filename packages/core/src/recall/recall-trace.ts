import type {
  MemoryEntry,
  QueryTerm,
  RecallDropReason,
  RecallExplain,
  RecallTraceCandidate,
  RecallTraceStage,
} from "@memory/api";
import type { QueryIntent } from "./query-intent.js";
import type { KeywordScorer } from "./relevance.js";

const PREVIEW_CHARS = 120;

/** What the search stages worked with, kept for explaining a key that was no candidate. */
export interface TracedSearch {
  terms: readonly QueryTerm[];
  scorer: KeywordScorer | undefined;
  queryVector: Float32Array | undefined;
  pool: number;
  keywordHits: number;
  /** Vector hits, and the lowest cosine among them (the bar a non-candidate did not reach). */
  vectorHits: number;
  lowestCosine: number | undefined;
  intent: QueryIntent | undefined;
}

/** A dropped candidate, as `finalizeResults` saw it (a result with its score and explain). */
interface Dropped {
  result: MemoryEntry;
  reason: RecallDropReason;
  detail: string;
}

/** Four digits: enough to compare against a threshold, short enough to read. */
export function digits(value: number): string {
  return Number.isInteger(value) ? String(value) : value.toFixed(4).replace(/0+$/u, "");
}

/**
 * Collects one recall's stages and drops, handed to the engine and `finalizeResults` only when
 * a trace is asked for (`explainRecall`): a plain recall passes none and pays for nothing. The
 * drops are recorded where the pipeline drops, so a trace cannot disagree with a recall.
 */
export class RecallTraceCollector {
  readonly stages: RecallTraceStage[] = [];
  readonly #dropped = new Map<string, Dropped>();
  source: RecallExplain["source"] = "keyword";
  degraded: string | undefined;
  search: TracedSearch | undefined;

  stage(name: RecallTraceStage["name"], count: number, detail?: string): void {
    this.stages.push(detail === undefined ? { name, count } : { name, count, detail });
  }

  /** Records a drop; an entry dropped twice (a fallback pass) keeps the later reason. */
  drop(result: MemoryEntry, reason: RecallDropReason, detail: string): void {
    this.#dropped.set(result.id, { result, reason, detail });
  }

  /** Kept results first, in order, then every dropped candidate best first (ties by key). */
  candidates(results: readonly MemoryEntry[]): RecallTraceCandidate[] {
    const kept = new Set(results.map((entry) => entry.id));
    const dropped = [...this.#dropped.values()]
      .filter(({ result }) => !kept.has(result.id))
      .sort(
        (a, b) =>
          (b.result.score ?? 0) - (a.result.score ?? 0) ||
          (a.result.key < b.result.key ? -1 : a.result.key > b.result.key ? 1 : 0),
      );
    return [
      ...results.map((entry) => traceCandidate(entry, true)),
      ...dropped.map(({ result, reason, detail }) => traceCandidate(result, false, reason, detail)),
    ];
  }

  /** Dropped candidates (for the pass that looks for what the filter left out). */
  droppedResults(): MemoryEntry[] {
    return [...this.#dropped.values()].map(({ result }) => result);
  }
}

/** One candidate of a trace, from a result (score and explain) and its verdict. */
export function traceCandidate(
  entry: MemoryEntry,
  kept: boolean,
  reason?: RecallDropReason,
  detail?: string,
): RecallTraceCandidate {
  const flat = entry.content.replace(/\s+/gu, " ").trim();
  const candidate: RecallTraceCandidate = {
    key: entry.key,
    namespace: entry.namespace,
    category: entry.category,
    preview: flat.length <= PREVIEW_CHARS ? flat : `${flat.slice(0, PREVIEW_CHARS - 1)}…`,
    kept,
    score: entry.score ?? 0,
    explain: entry.explain ?? { mode: "hybrid", source: "keyword", fused: 0, decay: 1 },
  };
  if (entry.sessionId !== undefined) candidate.sessionId = entry.sessionId;
  if (reason !== undefined) candidate.reason = reason;
  if (detail !== undefined) candidate.detail = detail;
  return candidate;
}

/** Records what the search stages found (and why one did not run) on a trace. */
export function traceStages(
  trace: RecallTraceCollector,
  parts: {
    terms: readonly QueryTerm[];
    pool: number;
    keyword: { hits: readonly unknown[] } | undefined;
    vectorHits: readonly { cosine: number }[] | undefined;
    queryVector: Float32Array | undefined;
    earlyReturn: boolean;
    degraded: string | undefined;
    scorer: KeywordScorer | undefined;
  },
): void {
  const { terms, pool, keyword, vectorHits } = parts;
  let lowestCosine: number | undefined;
  for (const hit of vectorHits ?? [])
    if (lowestCosine === undefined || hit.cosine < lowestCosine) lowestCosine = hit.cosine;
  trace.search = {
    terms,
    scorer: parts.scorer,
    queryVector: parts.queryVector,
    pool,
    keywordHits: keyword?.hits.length ?? 0,
    vectorHits: vectorHits?.length ?? 0,
    lowestCosine,
    intent: undefined,
  };
  trace.stage(
    "keyword",
    keyword?.hits.length ?? 0,
    terms.length === 0
      ? "the query has no search words"
      : `entries with any of ${terms.map((term) => term.text + (term.prefix ? "*" : "")).join(", ")}: the best ${pool} by BM25`,
  );
  trace.stage(
    "vector",
    vectorHits?.length ?? 0,
    vectorHits
      ? `the ${pool} nearest by cosine`
      : parts.earlyReturn
        ? "skipped: the keyword hits were decisive (early return)"
        : (parts.degraded ?? "not run (keyword-only mode)"),
  );
}
