import type { NormalizedFilter } from "../validation.js";
import type { MemoryEntry } from "./memory-entry.js";

/** An entry as a search stage returns it: the entry and its index terms (space-joined). */
export interface IndexedEntry {
  entry: MemoryEntry;
  /** `indexedTerms(key, content)`, as the backend stored it. */
  terms: string;
}

export interface KeywordStageRequest {
  /** Search terms (stop words already dropped), from `analyzeQuery` + `searchTerms`. */
  terms: readonly QueryTerm[];
  filter: NormalizedFilter & { namespace: string };
  /** Entries wanted: the best by the backend's own full-text ranking, matching any term. */
  pool: number;
}

export interface KeywordStageResult {
  hits: IndexedEntry[];
  /** Statistics of `filter.namespace` alone (never pooled over other namespaces). */
  statistics: KeywordStatistics;
}

export interface VectorStageRequest {
  vector: Float32Array;
  filter: NormalizedFilter & { namespace: string };
  pool: number;
}

/** A vector hit with its exact cosine similarity. */
export interface VectorStageHit extends IndexedEntry {
  cosine: number;
}

/** Whether the vector stage can run, and if not, why (shown in `explain.degraded`). */
export interface VectorAvailability {
  usable: boolean;
  reason?: string;
}

/**
 * What a backend supplies to the recall engine: storage access only. Ranking, scores, fusion,
 * caching, fallbacks and `explain` belong to the engine, so they are the same everywhere.
 * Every stage applies the whole filter before its limit.
 */
export interface RecallStages {
  /** Most recent entries matching the filter, newest first (empty query, `*`). */
  recent(filter: NormalizedFilter, limit: number): Promise<MemoryEntry[]>;
  /** Entries whose index terms match any search term, plus the namespace's term statistics. */
  keyword(request: KeywordStageRequest): Promise<KeywordStageResult>;
  /**
   * The driver's own reason vectors cannot be searched now (an index that failed to load, stored
   * vectors of another size...), or usable. The facade checks the provider and the stored
   * fingerprint first (`@memory/core`), so a driver does not repeat those rules.
   */
  vectorAvailability(): VectorAvailability | Promise<VectorAvailability>;
  /**
   * The query's embedding (cached by the backend as it likes). Any error (provider down, wrong
   * size, timeout) makes the engine answer from keywords with `explain.degraded`; only an abort
   * of the caller's signal propagates.
   */
  embedQuery(query: string, signal?: AbortSignal): Promise<Float32Array>;
  /** The `pool` entries nearest to the vector by exact cosine. */
  vector(request: VectorStageRequest): Promise<VectorStageHit[]>;
  /** Exact cosines of the given entries that have a current vector (absent ids have none). */
  cosines(ids: readonly string[], vector: Float32Array): Promise<Map<string, number>>;
  /**
   * Both search stages at once, when the backend can do that cheaper than one after the other
   * (PostgreSQL: two connections, or one round trip). Optional.
   */
  hybrid?(
    keyword: KeywordStageRequest,
    vector: VectorStageRequest,
  ): Promise<{ keyword: KeywordStageResult; vector: VectorStageHit[] }>;
  /**
   * Optional (conversational context): for each given entry that has a session, the entries just
   * before and just after it in that session (same namespace and `sessionId`, ordered by
   * `createdAt`, then write order), among the entries that pass the filter. Keyed by the given
   * ids; an entry without a session, or alone in it, is absent. Without this stage recall still
   * lifts entries by their session's best match, but not by their neighbours.
   */
  neighbors?(
    ids: readonly string[],
    filter: NormalizedFilter & { namespace: string },
  ): Promise<Map<string, IndexedEntry[]>>;
  /** Entries containing any keyword in key or content (case-insensitive, `%`/`_` escaped). */
  like(keywords: readonly string[], filter: NormalizedFilter, pool: number): Promise<MemoryEntry[]>;
  /** Attaches stored embeddings to results (`withEmbeddings`). */
  attachEmbeddings(results: MemoryEntry[]): Promise<MemoryEntry[]>;
  /**
   * A value that changes whenever the store may have changed (including through another
   * process); results are cached while it stays equal. `undefined` turns the hot cache off (for
   * this recall). A store on a server may answer with a promise (PostgreSQL asks its schema).
   */
  changeToken?(): unknown;
}

/** Terms of one query word. `stop` marks English stop words (dropped unless nothing else is left). */
export interface QueryTerm {
  /** The index term (stemmed, folded); for a prefix term the folded, unstemmed prefix. */
  text: string;
  /** `wild*`: matches index terms starting with `text`. */
  prefix: boolean;
  /**
   * For a prefix term whose word the stemmer changes: the stemmed word, an index term equal to
   * it matches too. The index holds stems, so "zephyrine" is stored as `zephyrin` and
   * "beacon"/"beacons" as `beacon`: `zephyrine*` and `beacons*` must find them.
   */
  stem?: string;
  stop: boolean;
}

/** Term statistics of one namespace, as a keyword stage reports them. */
export interface KeywordStatistics {
  /** Entries in the namespace. */
  documents: number;
  /** Mean number of index terms per entry. */
  averageLength: number;
  /** Entries containing each search term (same order as the terms). */
  documentFrequency: readonly number[];
}
