import {
  type MemoryEntry,
  type NormalizedFilter,
  RECALL_DROP_REASONS,
  type RecallStages,
  type RecallTrace,
  type RecallTraceCandidate,
  type RecallTraceFocus,
  type RecallTraceSettings,
  type RetrievalSettings,
  type TextLanguage,
  type VectorCalibration,
} from "@memory/api";
import { DEFAULT_RRF_K } from "../algorithms/fusion.js";
import { type FilterPart, filterExclusion } from "./in-memory-stages.js";
import type { IntentWeights } from "./query-intent.js";
import type { RecallRequest } from "./recall-request.js";
import {
  digits,
  type RecallTraceCollector,
  type TracedSearch,
  traceCandidate,
} from "./recall-trace.js";
import { vectorRelevance } from "./relevance.js";
import { indexedTerms } from "./text-analyzer.js";

/** The settings a traced recall ran with, as numbers. */
export function traceSettings(
  settings: RetrievalSettings,
  request: RecallRequest,
  parts: { calibration: VectorCalibration; intentWeights: IntentWeights; recent: boolean },
): RecallTraceSettings {
  return {
    mode: request.mode,
    mergeStrategy: settings.mergeStrategy,
    weights: { keyword: settings.keywordWeight, vector: settings.vectorWeight },
    rrfK: settings.rrfK ?? DEFAULT_RRF_K,
    // "Most recent entries" is not a search: only an explicit threshold applies to it.
    minScore: parts.recent && !request.explicitMinScore ? 0 : request.minScore,
    limit: request.limit,
    pool: request.limit * settings.candidateMultiplier,
    candidateMultiplier: settings.candidateMultiplier,
    halfLifeDays: settings.halfLifeDays,
    vectorCalibration: { floor: parts.calibration.floor, full: parts.calibration.full },
    intentWeights: { ...parts.intentWeights },
    contextWeights: {
      neighbor: settings.contextNeighborWeight,
      session: settings.contextSessionWeight,
    },
    ftsEarlyReturnScore: settings.ftsEarlyReturnScore,
  };
}

/** True when the filter leaves out more than other namespaces (superseded entries count). */
export function filterNarrows(filter: NormalizedFilter): boolean {
  return (
    filter.sessionId !== undefined ||
    filter.categories !== undefined ||
    (filter.excludeCategories !== undefined && filter.excludeCategories.length > 0) ||
    filter.since !== undefined ||
    filter.until !== undefined ||
    filter.awakeAt !== undefined ||
    !filter.includeSuperseded
  );
}

/** The same filter over the whole namespace, superseded entries included. */
export function namespaceOnly(filter: NormalizedFilter & { namespace: string }) {
  return {
    namespace: filter.namespace,
    sessionId: undefined,
    categories: undefined,
    since: undefined,
    until: undefined,
    includeSuperseded: true,
  };
}

/** Why the filter's part leaves the entry out, in a sentence with the values. */
function exclusionDetail(part: FilterPart, entry: MemoryEntry, filter: NormalizedFilter): string {
  switch (part) {
    case "superseded":
      return `superseded by ${JSON.stringify(entry.supersededBy)} (includeSuperseded is off)`;
    case "category":
      if (filter.excludeCategories?.includes(entry.category))
        return `category ${JSON.stringify(entry.category)} is reserved (name it in categories to recall it)`;
      return `category ${JSON.stringify(entry.category)} is not in categories ${JSON.stringify(filter.categories)}`;
    case "session":
      return entry.sessionId === undefined
        ? `it has no session; sessionId is ${JSON.stringify(filter.sessionId)}`
        : `session ${JSON.stringify(entry.sessionId)} is not sessionId ${JSON.stringify(filter.sessionId)}`;
    case "since":
      return `updated ${entry.updatedAt}, before since ${filter.since}`;
    case "until":
      return `updated ${entry.updatedAt}, not before until ${filter.until}`;
    case "snoozed":
      return `snoozed until ${entry.snoozedUntil} (includeSnoozed is off)`;
    case "namespace":
      return `namespace ${JSON.stringify(entry.namespace)} is not ${JSON.stringify(filter.namespace)}`;
  }
}

/**
 * The candidates a search over the whole namespace found that the caller's filter leaves out,
 * each named by the filter's reference rule (`filterExclusion`), with the parts of its score
 * as that search measured them. Best score first.
 */
export function filteredCandidates(
  wide: readonly MemoryEntry[],
  known: ReadonlySet<string>,
  filter: NormalizedFilter,
): RecallTraceCandidate[] {
  const found: RecallTraceCandidate[] = [];
  const seen = new Set<string>();
  for (const entry of wide) {
    if (known.has(entry.key) || seen.has(entry.key)) continue;
    const part = filterExclusion(entry, filter);
    if (part === undefined) continue;
    seen.add(entry.key);
    const reason = part === "superseded" ? "superseded" : "filtered";
    found.push(traceCandidate(entry, false, reason, exclusionDetail(part, entry, filter)));
  }
  return found.sort((a, b) => b.score - a.score || (a.key < b.key ? -1 : 1));
}

/** What a focused key needs besides the trace: the entry, the stages, the analyzer language. */
export interface FocusInput {
  key: string;
  entry: MemoryEntry | null;
  stages: RecallStages;
  calibration: VectorCalibration;
  language: TextLanguage;
  filter: NormalizedFilter;
  mode: RecallRequest["mode"];
  degraded: string | undefined;
}

/**
 * Why the focused key is or is not in the results: its verdict when it was a candidate; else
 * its parts measured for it alone (the same scorer and calibration as the recall) and which
 * bar each stage set that it did not reach.
 */
export async function focusVerdict(
  candidates: readonly RecallTraceCandidate[],
  search: TracedSearch | undefined,
  input: FocusInput,
): Promise<RecallTraceFocus> {
  const { key, entry } = input;
  const name = JSON.stringify(key);
  const index = candidates.findIndex((candidate) => candidate.key === key);
  const candidate = candidates[index];
  if (candidate) {
    const verdict = candidate.kept
      ? `${name} is in the results, rank ${index + 1}, score ${digits(candidate.score)} (relevance ${digits(candidate.explain.fused)} x decay ${digits(candidate.explain.decay)})`
      : `${name} is a candidate but dropped, ${RECALL_DROP_REASONS[candidate.reason!] ?? candidate.reason}: ${candidate.detail ?? ""}`;
    return { key, exists: true, candidate, verdict };
  }
  if (!entry)
    return {
      key,
      exists: false,
      verdict: `${name} is not in the results: no entry has this key in namespace ${JSON.stringify(input.filter.namespace)}`,
    };
  const focus: RecallTraceFocus = { key, exists: true, verdict: "" };
  const reasons: string[] = [];
  const part = filterExclusion(entry, input.filter);
  if (part !== undefined)
    reasons.push(`the filter leaves it out (${exclusionDetail(part, entry, input.filter)})`);
  if (!search) reasons.push("no search stage ran (a match-all query lists the most recent)");
  else {
    if (search.terms.length === 0) reasons.push("the query has no search words");
    else {
      const relevance = search.scorer
        ? search.scorer.relevance(
            search.scorer.bm25(indexedTerms(entry.key, entry.content, input.language)),
          )
        : 0;
      focus.keywordRelevance = relevance;
      reasons.push(
        relevance === 0
          ? "no query word matches it"
          : `its keyword relevance ${digits(relevance)} did not make the keyword stage's best ${search.pool}`,
      );
    }
    if (!search.queryVector)
      reasons.push(
        `the vector stage did not run (${input.degraded ?? (input.mode === "bm25" ? "mode bm25" : "early return")})`,
      );
    else {
      const cosine = (await input.stages.cosines([entry.id], search.queryVector)).get(entry.id);
      if (cosine === undefined) reasons.push("it has no vector yet (backfill embeds it)");
      else {
        focus.cosine = cosine;
        focus.vectorRelevance = vectorRelevance(cosine, input.calibration);
        const bar =
          search.lowestCosine === undefined
            ? ""
            : `; the lowest taken had ${digits(search.lowestCosine)}`;
        reasons.push(
          `the vector stage ranked it below its ${search.vectorHits} nearest (cosine ${digits(cosine)}${bar})`,
        );
      }
    }
  }
  focus.verdict = `${name} is not a candidate at all: ${reasons.join(", and ")}`;
  return focus;
}

/** The trace of one recall, from its collector and candidates (and the focused key's verdict). */
export async function assembleTrace(parts: {
  query: string;
  request: RecallRequest;
  collector: RecallTraceCollector;
  candidates: RecallTraceCandidate[];
  results: MemoryEntry[];
  settings: RetrievalSettings;
  calibration: VectorCalibration;
  intentWeights: IntentWeights;
  stages: RecallStages;
  focus: { key: string; entry: MemoryEntry | null } | undefined;
}): Promise<RecallTrace> {
  const { request, collector, candidates } = parts;
  const search = collector.search;
  const trace: RecallTrace = {
    query: parts.query,
    namespace: request.filter.namespace,
    settings: traceSettings(parts.settings, request, {
      calibration: parts.calibration,
      intentWeights: parts.intentWeights,
      recent: collector.source === "recent",
    }),
    intent: {
      question: search?.intent?.question ?? false,
      when: search?.intent?.when ?? false,
      terms: search ? search.terms.map((term) => term.text) : [],
    },
    source: collector.source,
    stages: collector.stages,
    candidates,
    results: parts.results,
  };
  if (collector.degraded !== undefined) trace.degraded = collector.degraded;
  if (parts.focus)
    trace.focus = await focusVerdict(candidates, search, {
      ...parts.focus,
      stages: parts.stages,
      calibration: parts.calibration,
      language: parts.settings.textLanguage,
      filter: request.filter,
      mode: request.mode,
      degraded: collector.degraded,
    });
  return trace;
}
