import type {
  KeywordStageResult,
  MemoryEntry,
  RecallExplain,
  RecallOptions,
  RecallStages,
  RecallTrace,
  RetrievalSettings,
  VectorCalibration,
  VectorStageHit,
} from "@memory/api";
import { DEFAULT_RRF_K, rrfContribution } from "../algorithms/fusion.js";
import { RecallCache } from "../algorithms/recall-cache.js";
import { isMatchAllQuery, likeFallbackKeywords } from "../algorithms/search-terms.js";
import { asksGraph, expandGraph, type GraphAccess } from "./graph-expansion.js";
import { type IntentWeights, queryIntent } from "./query-intent.js";
import {
  addVectorHits,
  applyRelevance,
  type Candidate,
  keywordCandidates,
  measureCosines,
  measureKeyword,
  type RelevanceRule,
} from "./recall-candidates.js";
import { addContext } from "./recall-context.js";
import { type RecallRequest as Request, recallRequest } from "./recall-request.js";
import { type FinalizeOptions, finalizeResults, type ScoredCandidate } from "./recall-results.js";
import { RecallTraceCollector, traceStages } from "./recall-trace.js";
import { KeywordScorer, likeRelevance } from "./relevance.js";
import { resolveVectorCalibration } from "./retrieval-settings.js";
import { analyzeQuery, searchTerms } from "./text-analyzer.js";
import {
  assembleTrace,
  filteredCandidates,
  filterNarrows,
  namespaceOnly,
} from "./trace-assembly.js";
import { halfLifeStretch, type UsageAccess } from "./usage-ranking.js";
import { embedQuery, keywordDecisive } from "./vector-gate.js";

export interface RecallEngineOptions {
  stages: RecallStages;
  settings: RetrievalSettings;
  /** The embedding provider, for its cosine calibration (settings override it). */
  embedder?: { similarityCalibration?: VectorCalibration | undefined } | undefined;
  /** Clock for time decay (tests inject one). Default `Date.now`. */
  now?: () => number;
  /** Edges and entries for graph expansion (`graph_expansion`; backends with relations). */
  graph?: GraphAccess | undefined;
  /** Usage records, for `usage_half_life_factor` (backends with usage). */
  usage?: UsageAccess | undefined;
}

/**
 * The recall pipeline, once for every backend (DESIGN section 4 as amended by the recall-engine
 * issue): validation, the hot cache, match-all queries, the keyword and vector stages supplied
 * by the backend, relevance scoring with exact parts for every candidate, ordering, decay,
 * thresholds, the LIKE fallback, degradation to keywords when the embedder is unavailable or
 * fails, and `explain`. Its parts: the request rules (recall-request.ts), the candidates and
 * their parts (recall-candidates.ts), conversational context (recall-context.ts) and the
 * ordering of results (recall-results.ts).
 */
export class RecallEngine {
  readonly #stages: RecallStages;
  readonly #settings: RetrievalSettings;
  readonly #now: () => number;
  readonly #calibration: VectorCalibration;
  readonly #cache: RecallCache<MemoryEntry[]>;
  #cacheToken: unknown;
  readonly #uncacheable = new WeakSet<MemoryEntry[]>();
  readonly #intentWeights: IntentWeights;
  readonly #graph: GraphAccess | undefined;
  readonly #usage: UsageAccess | undefined;

  constructor(options: RecallEngineOptions) {
    this.#stages = options.stages;
    this.#graph = options.graph;
    this.#usage = options.usage;
    this.#settings = options.settings;
    this.#now = options.now ?? Date.now;
    this.#calibration = resolveVectorCalibration(options.settings, options.embedder);
    this.#intentWeights = {
      questionPenalty: options.settings.questionEntryPenalty,
      temporalBoost: options.settings.temporalBoost,
      speakerBoost: options.settings.speakerBoost,
    };
    this.#cache = new RecallCache({
      maxEntries: this.#settings.recallCacheSize,
      ttlMs: this.#settings.recallCacheTtlSeconds * 1000,
    });
  }

  get settings(): RetrievalSettings {
    return this.#settings;
  }

  /** Drops cached results of one namespace (after a write to it), or all of them. */
  invalidate(namespace?: string): void {
    this.#cache.invalidate(namespace);
  }

  async recall(query: string, options: RecallOptions = {}): Promise<MemoryEntry[]> {
    const request = recallRequest(query, options, this.#settings, this.#now());
    if (request.limit === 0) return [];
    // The token costs a read (SQLite: PRAGMA data_version); only asked when caching.
    const token =
      this.#settings.recallCacheSize > 0 ? await this.#stages.changeToken?.() : undefined;
    const cacheable = token !== undefined;
    // Built only when it is used: a JSON text of the options, on every recall otherwise.
    const cacheKey = cacheable
      ? RecallCache.key(query, {
          ...options,
          // Whether the caller tracks usage does not change the results.
          track: undefined,
          limit: request.limit,
          mode: request.mode,
          minScore: request.minScore,
        })
      : "";
    if (cacheable) {
      if (token !== this.#cacheToken) {
        this.#cache.invalidate();
        this.#cacheToken = token;
      }
      const cached = this.#cache.get(cacheKey, this.#now());
      if (cached) return structuredClone(cached);
    }
    const found = await this.#search(request);
    const results =
      options.withEmbeddings && found.length > 0
        ? await this.#stages.attachEmbeddings(found)
        : found;
    if (cacheable && !this.#uncacheable.has(found))
      // The injected clock, as `get` uses: expiry measured on two clocks never comes.
      this.#cache.set(cacheKey, request.filter.namespace, structuredClone(results), this.#now());
    return results;
  }

  /**
   * The recall of `query`, traced (`Memory.explainRecall`): never cached, each stage and every
   * drop recorded where the pipeline makes it, so `results` is what `recall` returns. Then, when
   * the filter narrows (by default it leaves out superseded entries), the same search over the
   * whole namespace finds the candidates the filter left out. `focus`: one key to explain.
   */
  async trace(
    query: string,
    options: RecallOptions = {},
    focus?: { key: string; entry: MemoryEntry | null },
  ): Promise<RecallTrace> {
    const request = recallRequest(query, options, this.#settings, this.#now());
    const collector = new RecallTraceCollector();
    const found = request.limit === 0 ? [] : await this.#search(request, collector);
    if (request.limit === 0) collector.stage("finalize", 0, "limit 0 returns nothing");
    const results =
      options.withEmbeddings && found.length > 0
        ? await this.#stages.attachEmbeddings(found)
        : found;
    const candidates = collector.candidates(results);
    if (request.limit > 0 && filterNarrows(request.filter)) {
      const wide = new RecallTraceCollector();
      const all = { ...request, filter: namespaceOnly(request.filter) };
      const wideResults = await this.#search(all, wide);
      const known = new Set(candidates.map((candidate) => candidate.key));
      const left = filteredCandidates(
        [...wideResults, ...wide.droppedResults()],
        known,
        request.filter,
      );
      candidates.push(...left);
      collector.stage(
        "filter",
        left.length,
        "candidates of the whole namespace the filter left out",
      );
    }
    return assembleTrace({
      query,
      request,
      collector,
      candidates,
      results,
      settings: this.#settings,
      calibration: this.#calibration,
      intentWeights: this.#intentWeights,
      stages: this.#stages,
      focus,
    });
  }

  #finalize(
    candidates: readonly ScoredCandidate[],
    request: Request,
    source: RecallExplain["source"],
    extra: Pick<FinalizeOptions, "strategy" | "earlyReturn" | "degraded" | "halfLifeFactors"> = {},
    trace?: RecallTraceCollector,
  ): MemoryEntry[] {
    return finalizeResults(
      candidates,
      {
        mode: request.mode,
        source,
        limit: request.limit,
        // "Most recent entries" is not a search: only an explicit threshold applies to it.
        minScore: source === "recent" && !request.explicitMinScore ? 0 : request.minScore,
        includeSuperseded: request.filter.includeSuperseded,
        halfLifeDays: this.#settings.halfLifeDays,
        now: this.#now(),
        pinBoost: this.#settings.pinBoost,
        ...extra,
      },
      trace,
    );
  }

  /** `trace` (explainRecall only): told each stage and every drop; absent, nothing is recorded. */
  async #search(request: Request, trace?: RecallTraceCollector): Promise<MemoryEntry[]> {
    const stages = this.#stages;
    const { mode, filter, limit } = request;
    if (isMatchAllQuery(request.query)) {
      const recent = await stages.recent(filter, limit);
      const availability = mode === "bm25" ? { usable: true } : await stages.vectorAvailability();
      if (trace) {
        trace.source = "recent";
        trace.stage("recent", recent.length, "a match-all query: the most recent entries");
      }
      return this.#finalize(
        recent.map((entry) => ({ entry, relevance: 1 })),
        request,
        "recent",
        availability.usable ? {} : { degraded: availability.reason ?? "vector search unavailable" },
        trace,
      );
    }

    const availability = mode === "bm25" ? { usable: false } : await stages.vectorAvailability();
    let degraded =
      mode !== "bm25" && !availability.usable
        ? (availability.reason ?? "vector search is unavailable")
        : undefined;
    const terms = searchTerms(analyzeQuery(request.query, this.#settings.textLanguage));
    const pool = limit * this.#settings.candidateMultiplier;
    // Backends select by their own full-text rank; the engine re-scores the pool with
    // namespace-local BM25. Asking for twice the pool changed nothing on LoCoMo and cost 25%.
    const keywordRequest = { terms, filter, pool };
    const runKeyword = (): Promise<KeywordStageResult> =>
      terms.length === 0
        ? Promise.resolve({
            hits: [],
            statistics: { documents: 0, averageLength: 0, documentFrequency: [] },
          })
        : stages.keyword(keywordRequest);

    let keyword: KeywordStageResult | undefined;
    let vectorHits: VectorStageHit[] | undefined;
    let queryVector: Float32Array | undefined;
    let earlyReturn = false;
    // A provider failure may pass: such answers are not cached.
    let transient = false;
    if (degraded === undefined && mode !== "bm25") {
      if (mode === "hybrid" && this.#settings.ftsEarlyReturnScore < 1) {
        keyword = await runKeyword();
        earlyReturn = keywordDecisive(
          keyword,
          terms,
          pool,
          limit,
          this.#settings.ftsEarlyReturnScore,
        );
      }
      if (!earlyReturn) {
        const embedded = await embedQuery(stages, request);
        if ("failure" in embedded) {
          degraded = embedded.failure;
          transient = true;
        } else {
          queryVector = embedded.vector;
          const vectorRequest = { vector: queryVector, filter, pool };
          if (mode === "hybrid" && !keyword && stages.hybrid && terms.length > 0) {
            ({ keyword, vector: vectorHits } = await stages.hybrid(keywordRequest, vectorRequest));
          } else {
            [keyword, vectorHits] = await Promise.all([
              mode === "hybrid" && !keyword ? runKeyword() : Promise.resolve(keyword),
              stages.vector(vectorRequest),
            ]);
          }
        }
      }
    }
    // Keyword-only answers: bm25 mode, and any mode whose vector stage is unavailable or failed.
    const keywordOnly = mode === "bm25" || degraded !== undefined || earlyReturn;
    if (keywordOnly && !keyword) keyword = await runKeyword();

    const scorer =
      keyword && terms.length > 0 ? new KeywordScorer(terms, keyword.statistics) : undefined;
    const candidates =
      keyword && scorer ? keywordCandidates(keyword, scorer, pool) : new Map<string, Candidate>();
    const calibration = this.#calibration;
    if (trace)
      traceStages(trace, {
        terms,
        pool,
        keyword,
        vectorHits,
        queryVector,
        earlyReturn,
        degraded,
        scorer,
      });
    if (vectorHits && queryVector) {
      addVectorHits(candidates, vectorHits, calibration);
      // Exact parts for every candidate: the other stage's score is computed, never taken as 0.
      if (mode === "hybrid") {
        const all = [...candidates.values()];
        const noCosine = all.filter((c) => c.cosine === undefined);
        await measureCosines(noCosine, stages, queryVector, calibration);
        if (scorer)
          measureKeyword(
            all.filter((c) => c.keywordScore === undefined),
            scorer,
          );
      }
    }

    const hybrid = mode === "hybrid" && !keywordOnly;
    const rule: RelevanceRule = {
      hybrid,
      keywordOnly,
      scorer,
      weights: { keyword: this.#settings.keywordWeight, vector: this.#settings.vectorWeight },
      intent: queryIntent(request.query, this.#settings.textLanguage, terms),
      intentWeights: this.#intentWeights,
    };
    if (trace?.search) trace.search.intent = rule.intent;
    const rrf = hybrid && this.#settings.mergeStrategy === "rrf";
    const rrfK = this.#settings.rrfK ?? DEFAULT_RRF_K;
    const list: Candidate[] = [...candidates.values()];
    for (const candidate of list) {
      applyRelevance(candidate, rule);
      if (rrf) {
        candidate.rrf =
          (candidate.keywordRank !== undefined ? rrfContribution(candidate.keywordRank, rrfK) : 0) +
          (candidate.vectorRank !== undefined ? rrfContribution(candidate.vectorRank, rrfK) : 0);
      }
    }
    const ownCandidates = list.length;
    const measure = async (found: Candidate[]) => {
      if (queryVector && !keywordOnly)
        await measureCosines(found, stages, queryVector, calibration);
      if (scorer && (hybrid || keywordOnly)) measureKeyword(found, scorer);
      for (const candidate of found) {
        applyRelevance(candidate, rule);
        // Found by neither stage: no rank, so no rank-fusion value either.
        if (rrf) candidate.rrf = 0;
      }
    };
    await addContext(list, filter, this.#settings, stages, measure);
    if (this.#settings.graphExpansion && this.#graph && asksGraph(request.query)) {
      const raised = await expandGraph(
        list,
        filter,
        keyword?.statistics.documents ?? 0,
        this.#graph,
        measure,
      );
      trace?.stage("graph", raised, "candidates added or raised by following relations");
    }
    const source: RecallExplain["source"] = hybrid ? "hybrid" : keywordOnly ? "keyword" : "vector";
    if (trace) {
      trace.source = source;
      trace.degraded = degraded;
      const lifted = list.filter((candidate) => candidate.context !== undefined).length;
      trace.stage(
        "context",
        list.length - ownCandidates,
        `session neighbours added as candidates; ${lifted} candidate(s) raised by their session`,
      );
    }
    const halfLifeFactors = await halfLifeStretch(
      this.#usage,
      this.#settings.usageHalfLifeFactor,
      filter.namespace,
      list,
    );
    const results = this.#finalize(
      list,
      request,
      source,
      {
        ...(halfLifeFactors ? { halfLifeFactors } : {}),
        ...(hybrid ? { strategy: this.#settings.mergeStrategy } : {}),
        ...(earlyReturn ? { earlyReturn } : {}),
        ...(degraded !== undefined ? { degraded } : {}),
      },
      trace,
    );
    trace?.stage("finalize", results.length, `${list.length} candidate(s) scored`);
    // Nothing relevant (no result, or only vector neighbours of relevance 0): substrings.
    const found = results.some((entry) => (entry.explain?.fused ?? 0) > 0);
    if (found || mode === "bm25") return this.#respond(results, transient);
    const like = await this.#likeFallback(request, pool, degraded, trace);
    if (trace && like.length > 0) {
      trace.source = "like";
      for (const result of results)
        trace.drop(result, "replaced_by_fallback", "relevance 0: the substring fallback answered");
    }
    return this.#respond(like.length > 0 ? like : results, transient);
  }

  /** Results, marked uncacheable when they only stand in for a failed provider. */
  #respond(results: MemoryEntry[], transient: boolean): MemoryEntry[] {
    if (transient) this.#uncacheable.add(results);
    return results;
  }

  /** Nothing found by the search stages: substring matches of up to 8 query words (weak). */
  async #likeFallback(
    request: Request,
    pool: number,
    degraded: string | undefined,
    trace?: RecallTraceCollector,
  ): Promise<MemoryEntry[]> {
    const keywords = likeFallbackKeywords(request.query);
    if (keywords.length === 0) return [];
    const entries = await this.#stages.like(keywords, request.filter, pool);
    trace?.stage("like", entries.length, `nothing relevant: substrings of ${keywords.join(", ")}`);
    return this.#finalize(
      entries.map((entry) => ({
        entry,
        relevance: likeRelevance(keywords, entry.key, entry.content),
      })),
      request,
      "like",
      degraded !== undefined ? { degraded } : {},
      trace,
    );
  }
}
