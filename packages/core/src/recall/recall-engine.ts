import type {
  KeywordStageResult,
  MemoryEntry,
  RecallExplain,
  RecallOptions,
  RecallStages,
  SearchMode,
  VectorStageHit,
} from "@memory/api";
import {
  InvalidInputError,
  type NormalizedFilter,
  normalizeFilter,
  type RetrievalSettings,
  type VectorCalibration,
  validateLimit,
  validateQuery,
} from "@memory/api";
import { DEFAULT_RRF_K, rrfContribution } from "../algorithms/fusion.js";
import { RecallCache } from "../algorithms/recall-cache.js";
import { isMatchAllQuery, likeFallbackKeywords } from "../algorithms/search-terms.js";
import { Adjacency, contextLifts } from "./conversation-context.js";
import { type IntentWeights, intentFactor, queryIntent } from "./query-intent.js";
import { compareKeys, finalizeResults, type ScoredCandidate } from "./recall-results.js";
import { combinedRelevance, KeywordScorer, likeRelevance, vectorRelevance } from "./relevance.js";
import { resolveVectorCalibration } from "./retrieval-settings.js";
import { analyzeQuery, searchTerms } from "./text-analyzer.js";

const MODES: readonly SearchMode[] = ["hybrid", "bm25", "embedding"];

/**
 * How many of the best candidates bring their session neighbours into the candidates. 5, 10,
 * 20 and 40 gave the same LoCoMo numbers within 0.3 points; each anchor costs one lookup.
 */
const CONTEXT_ANCHORS = 10;

export interface RecallEngineOptions {
  stages: RecallStages;
  settings: RetrievalSettings;
  /** The embedding provider, for its cosine calibration (settings override it). */
  embedder?: { similarityCalibration?: VectorCalibration | undefined } | undefined;
  /** Clock for time decay (tests inject one). Default `Date.now`. */
  now?: () => number;
}

type Filter = NormalizedFilter & { namespace: string };

interface Request {
  query: string;
  limit: number;
  mode: SearchMode;
  filter: Filter;
  minScore: number;
  explicitMinScore: boolean;
  signal: AbortSignal | undefined;
}

/**
 * The recall pipeline, once for every backend (DESIGN section 4 as amended by the recall-engine
 * issue): validation, the hot cache, match-all queries, the keyword and vector stages supplied
 * by the backend, relevance scoring with exact parts for every candidate, ordering, decay,
 * thresholds, the LIKE fallback, degradation to keywords when the embedder is unavailable or
 * fails, and `explain`.
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

  constructor(options: RecallEngineOptions) {
    this.#stages = options.stages;
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
    const request = this.#request(query, options);
    if (request.limit === 0) return [];
    // The token costs a read (SQLite: PRAGMA data_version); only asked when caching.
    const token =
      this.#settings.recallCacheSize > 0 ? await this.#stages.changeToken?.() : undefined;
    const cacheable = token !== undefined;
    const cacheKey = RecallCache.key(query, {
      ...options,
      limit: request.limit,
      mode: request.mode,
      minScore: request.minScore,
    });
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

  #request(query: string, options: RecallOptions): Request {
    validateQuery(query);
    const limit = validateLimit(options.limit, 5);
    const filter = normalizeFilter(options) as Filter;
    const mode = options.mode ?? this.#settings.searchMode;
    if (!MODES.includes(mode)) {
      throw new InvalidInputError(
        `mode must be hybrid, bm25 or embedding, got ${JSON.stringify(mode)}.`,
      );
    }
    const explicitMinScore = options.minScore !== undefined;
    if (
      explicitMinScore &&
      (typeof options.minScore !== "number" || Number.isNaN(options.minScore))
    )
      throw new InvalidInputError(
        `minScore must be a number (0 keeps every result), got ${options.minScore}.`,
      );
    return {
      query,
      limit,
      mode,
      filter,
      minScore: options.minScore ?? this.#settings.minScore,
      explicitMinScore,
      signal: options.signal,
    };
  }

  #finalize(
    candidates: readonly ScoredCandidate[],
    request: Request,
    source: RecallExplain["source"],
    extra: { strategy?: RecallExplain["strategy"]; earlyReturn?: boolean; degraded?: string } = {},
  ): MemoryEntry[] {
    return finalizeResults(candidates, {
      mode: request.mode,
      source,
      limit: request.limit,
      // "Most recent entries" is not a search: only an explicit threshold applies to it.
      minScore: source === "recent" && !request.explicitMinScore ? 0 : request.minScore,
      includeSuperseded: request.filter.includeSuperseded,
      halfLifeDays: this.#settings.halfLifeDays,
      now: this.#now(),
      ...extra,
    });
  }

  async #search(request: Request): Promise<MemoryEntry[]> {
    const stages = this.#stages;
    const { mode, filter, limit } = request;
    if (isMatchAllQuery(request.query)) {
      const recent = await stages.recent(filter, limit);
      const availability = mode === "bm25" ? { usable: true } : await stages.vectorAvailability();
      return this.#finalize(
        recent.map((entry) => ({ entry, relevance: 1 })),
        request,
        "recent",
        availability.usable ? {} : { degraded: availability.reason ?? "vector search unavailable" },
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
        earlyReturn = this.#decisive(keyword, terms, pool, limit);
      }
      if (!earlyReturn) {
        const embedded = await this.#embed(request);
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
    const candidates = new Map<string, ScoredCandidate & { terms: string }>();
    if (keyword && scorer) {
      const ranked = keyword!.hits
        .map((hit) => ({ hit, bm25: scorer.bm25(hit.terms) }))
        .filter((item) => item.bm25 > 0)
        .sort((a, b) => b.bm25 - a.bm25 || compareKeys(a.hit.entry, b.hit.entry))
        .slice(0, pool);
      ranked.forEach(({ hit, bm25 }, rank) => {
        candidates.set(hit.entry.id, {
          entry: hit.entry,
          terms: hit.terms,
          relevance: 0,
          keywordRank: rank,
          keywordScore: bm25,
          keywordRelevance: scorer.relevance(bm25),
        });
      });
    }
    const calibration = this.#calibration;
    if (vectorHits && queryVector) {
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
      // Exact parts for every candidate: the other stage's score is computed, never taken as 0.
      if (mode === "hybrid") {
        const missing = [...candidates.values()].filter((c) => c.cosine === undefined);
        if (missing.length > 0) {
          const cosines = await stages.cosines(
            missing.map((c) => c.entry.id),
            queryVector,
          );
          for (const candidate of missing) {
            const cosine = cosines.get(candidate.entry.id);
            if (cosine === undefined) continue;
            candidate.cosine = cosine;
            candidate.vectorRelevance = vectorRelevance(cosine, calibration);
          }
        }
        if (scorer) {
          for (const candidate of candidates.values()) {
            if (candidate.keywordScore !== undefined) continue;
            const bm25 = scorer.bm25(candidate.terms);
            candidate.keywordScore = bm25;
            candidate.keywordRelevance = scorer.relevance(bm25);
          }
        }
      }
    }

    const hybrid = mode === "hybrid" && !keywordOnly;
    const weights = { keyword: this.#settings.keywordWeight, vector: this.#settings.vectorWeight };
    const rrfK = this.#settings.rrfK ?? DEFAULT_RRF_K;
    const intent = queryIntent(request.query, this.#settings.textLanguage, terms);
    const ownRelevance = (candidate: ScoredCandidate): void => {
      const base = hybrid
        ? combinedRelevance(
            {
              keyword: scorer ? (candidate.keywordRelevance ?? 0) : undefined,
              vector: candidate.vectorRelevance,
            },
            weights,
          )
        : !keywordOnly
          ? (candidate.vectorRelevance ?? 0)
          : (candidate.keywordRelevance ?? 0);
      const factor = intentFactor(intent, candidate.entry.content, this.#intentWeights);
      if (factor !== 1) candidate.intent = factor;
      candidate.relevance = Math.min(1, base * factor);
    };
    const list = [...candidates.values()];
    for (const candidate of list) {
      ownRelevance(candidate);
      if (hybrid && this.#settings.mergeStrategy === "rrf") {
        candidate.rrf =
          (candidate.keywordRank !== undefined ? rrfContribution(candidate.keywordRank, rrfK) : 0) +
          (candidate.vectorRank !== undefined ? rrfContribution(candidate.vectorRank, rrfK) : 0);
      }
    }
    await this.#addContext(list, request, {
      measure: async (found) => {
        if (queryVector && !keywordOnly) {
          const cosines = await stages.cosines(
            found.map((c) => c.entry.id),
            queryVector,
          );
          for (const candidate of found) {
            const cosine = cosines.get(candidate.entry.id);
            if (cosine === undefined) continue;
            candidate.cosine = cosine;
            candidate.vectorRelevance = vectorRelevance(cosine, calibration);
          }
        }
        if (scorer && (hybrid || keywordOnly)) {
          for (const candidate of found) {
            const bm25 = scorer.bm25(candidate.terms);
            candidate.keywordScore = bm25;
            candidate.keywordRelevance = scorer.relevance(bm25);
          }
        }
        for (const candidate of found) {
          ownRelevance(candidate);
          // Found by neither stage: no rank, so no rank-fusion value either.
          if (hybrid && this.#settings.mergeStrategy === "rrf") candidate.rrf = 0;
        }
      },
    });
    const source: RecallExplain["source"] = hybrid ? "hybrid" : keywordOnly ? "keyword" : "vector";
    const results = this.#finalize(list, request, source, {
      ...(hybrid ? { strategy: this.#settings.mergeStrategy } : {}),
      ...(earlyReturn ? { earlyReturn } : {}),
      ...(degraded !== undefined ? { degraded } : {}),
    });
    // Nothing relevant (no result, or only vector neighbours of relevance 0): substrings.
    const found = results.some((entry) => (entry.explain?.fused ?? 0) > 0);
    if (found || mode === "bm25") return this.#respond(results, transient);
    const like = await this.#likeFallback(request, pool, degraded);
    return this.#respond(like.length > 0 ? like : results, transient);
  }

  /**
   * Conversational context (conversation-context.ts): the session neighbours of the best
   * candidates join the candidates (their parts measured like any other's), then every
   * candidate's relevance is raised by its context. Off when both weights are 0.
   */
  async #addContext(
    list: (ScoredCandidate & { terms: string })[],
    request: Request,
    hooks: { measure(found: (ScoredCandidate & { terms: string })[]): Promise<void> },
  ): Promise<void> {
    const weights = {
      neighborWeight: this.#settings.contextNeighborWeight,
      sessionWeight: this.#settings.contextSessionWeight,
    };
    if (weights.neighborWeight <= 0 && weights.sessionWeight <= 0) return;
    const adjacency = new Adjacency();
    if (weights.neighborWeight > 0 && this.#stages.neighbors) {
      const anchors = list
        .filter((c) => c.entry.sessionId !== undefined && c.relevance > 0)
        .sort((a, b) => b.relevance - a.relevance || compareKeys(a.entry, b.entry))
        .slice(0, CONTEXT_ANCHORS);
      if (anchors.length > 0) {
        const neighbors = await this.#stages.neighbors(
          anchors.map((c) => c.entry.id),
          request.filter,
        );
        const known = new Set(list.map((c) => c.entry.id));
        const found: (ScoredCandidate & { terms: string })[] = [];
        for (const [id, hits] of neighbors) {
          for (const hit of hits) {
            adjacency.add(id, hit.entry.id);
            if (known.has(hit.entry.id)) continue;
            known.add(hit.entry.id);
            found.push({ entry: hit.entry, terms: hit.terms, relevance: 0 });
          }
        }
        if (found.length > 0) {
          await hooks.measure(found);
          list.push(...found);
        }
      }
    }
    const lifts = contextLifts(list, adjacency, weights);
    for (const candidate of list) {
      const lift = lifts.get(candidate.entry.id);
      if (lift === undefined) continue;
      candidate.context = lift;
      candidate.relevance = Math.min(1, candidate.relevance + lift);
    }
  }

  /** Results, marked uncacheable when they only stand in for a failed provider. */
  #respond(results: MemoryEntry[], transient: boolean): MemoryEntry[] {
    if (transient) this.#uncacheable.add(results);
    return results;
  }

  /**
   * Early return (off by default): the vector stage is skipped when the keyword stage alone
   * fills the limit and its best hit is at least `fts_early_return_score` relevant.
   * Otherwise hybrid falls through to the vector stage.
   */
  #decisive(
    keyword: KeywordStageResult,
    terms: Parameters<typeof searchTerms>[0],
    pool: number,
    limit: number,
  ): boolean {
    if (terms.length === 0) return false;
    const scorer = new KeywordScorer(terms, keyword.statistics);
    const relevances = keyword.hits
      .map((hit) => scorer.relevance(scorer.bm25(hit.terms)))
      .filter((value) => value > 0)
      .sort((a, b) => b - a)
      .slice(0, pool);
    return relevances.length >= limit && (relevances[0] ?? 0) >= this.#settings.ftsEarlyReturnScore;
  }

  /** The query embedding, or why there is none (the recall then answers from keywords). */
  async #embed(request: Request): Promise<{ vector: Float32Array } | { failure: string }> {
    try {
      const vector = await this.#stages.embedQuery(request.query, request.signal);
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

  /** Nothing found by the search stages: substring matches of up to 8 query words (weak). */
  async #likeFallback(
    request: Request,
    pool: number,
    degraded: string | undefined,
  ): Promise<MemoryEntry[]> {
    const keywords = likeFallbackKeywords(request.query);
    if (keywords.length === 0) return [];
    const entries = await this.#stages.like(keywords, request.filter, pool);
    return this.#finalize(
      entries.map((entry) => ({
        entry,
        relevance: likeRelevance(keywords, entry.key, entry.content),
      })),
      request,
      "like",
      degraded !== undefined ? { degraded } : {},
    );
  }
}
