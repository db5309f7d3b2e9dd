import type { EmbeddingProvider, MergeStrategy, SearchMode } from "@memory/api";
import type BetterSqlite3 from "better-sqlite3";

/** Options of {@link createSqliteMemory}. Setting names mirror the `[memory]` keys of `memory.toml`. */
export interface SqliteMemoryOptions {
  /** Database file (created with its directory when missing). Ignored when `database` is given. */
  path?: string;
  /** An open better-sqlite3 connection to use instead of `path`; it is never closed by this package. */
  database?: BetterSqlite3.Database;
  /** Embedding provider; without one, recall is keyword-only and says so in `explain.degraded`. */
  embedder?: EmbeddingProvider;
  /** Default recall mode (`search_mode`). Default `hybrid`. */
  searchMode?: SearchMode;
  /** `merge_strategy`. Default `rrf`. */
  mergeStrategy?: MergeStrategy;
  /** `rrf_k`. Default 60. */
  rrfK?: number;
  /** `vector_weight` of the weighted merge. Default 0.7. */
  vectorWeight?: number;
  /** `keyword_weight` of the weighted merge. Default 0.3. */
  keywordWeight?: number;
  /** `fts_early_return_score`: keyword relevance raw/(raw+1) above which the vector stage is skipped. Default 0.85. */
  ftsEarlyReturnScore?: number;
  /** `candidate_multiplier`: candidates per stage = limit x this. Default 4. */
  candidateMultiplier?: number;
  /** `half_life_days` of non-core decay. Default 7. */
  halfLifeDays?: number;
  /** `recall_cache_size` (0 disables the hot cache). Default 256. */
  recallCacheSize?: number;
  /** `recall_cache_ttl_seconds`. Default 300. */
  recallCacheTtlSeconds?: number;
  /** `defer_embedding`: store returns before the embedding is computed. Default false. */
  deferEmbedding?: boolean;
  /** `embedding_cache_max`: rows kept in the SQL embedding cache (LRU). Default 10 000. */
  embeddingCacheMax?: number;
  /** How long `close()` waits for deferred embeddings before giving up. Default 10 000 ms. */
  closeTimeoutMs?: number;
  /** Texts per provider call for deferred work, backfill and reindex. Default 64. */
  embeddingBatchSize?: number;
  /** When the database cannot be opened, behave as the `none` backend (logged loudly) instead of failing. */
  fallbackToNone?: boolean;
  /** Where warnings go (fallback to none, adopted legacy vectors). Default `console.warn`. */
  logger?: (message: string) => void;
}

/** The options with every default applied. */
export interface ResolvedSqliteOptions {
  searchMode: SearchMode;
  mergeStrategy: MergeStrategy;
  rrfK: number;
  vectorWeight: number;
  keywordWeight: number;
  ftsEarlyReturnScore: number;
  candidateMultiplier: number;
  halfLifeDays: number;
  recallCacheSize: number;
  recallCacheTtlSeconds: number;
  deferEmbedding: boolean;
  embeddingCacheMax: number;
  closeTimeoutMs: number;
  embeddingBatchSize: number;
  fallbackToNone: boolean;
  logger: (message: string) => void;
}

export const SQLITE_DEFAULTS: Omit<ResolvedSqliteOptions, "logger"> = {
  searchMode: "hybrid",
  mergeStrategy: "rrf",
  rrfK: 60,
  vectorWeight: 0.7,
  keywordWeight: 0.3,
  ftsEarlyReturnScore: 0.85,
  candidateMultiplier: 4,
  halfLifeDays: 7,
  recallCacheSize: 256,
  recallCacheTtlSeconds: 300,
  deferEmbedding: false,
  embeddingCacheMax: 10_000,
  closeTimeoutMs: 10_000,
  embeddingBatchSize: 64,
  fallbackToNone: false,
};

export function resolveSqliteOptions(options: SqliteMemoryOptions): ResolvedSqliteOptions {
  const pick = <K extends keyof typeof SQLITE_DEFAULTS>(name: K): ResolvedSqliteOptions[K] =>
    (options[name] ?? SQLITE_DEFAULTS[name]) as ResolvedSqliteOptions[K];
  return {
    searchMode: pick("searchMode"),
    mergeStrategy: pick("mergeStrategy"),
    rrfK: pick("rrfK"),
    vectorWeight: pick("vectorWeight"),
    keywordWeight: pick("keywordWeight"),
    ftsEarlyReturnScore: pick("ftsEarlyReturnScore"),
    candidateMultiplier: pick("candidateMultiplier"),
    halfLifeDays: pick("halfLifeDays"),
    recallCacheSize: pick("recallCacheSize"),
    recallCacheTtlSeconds: pick("recallCacheTtlSeconds"),
    deferEmbedding: pick("deferEmbedding"),
    embeddingCacheMax: pick("embeddingCacheMax"),
    closeTimeoutMs: pick("closeTimeoutMs"),
    embeddingBatchSize: pick("embeddingBatchSize"),
    fallbackToNone: pick("fallbackToNone"),
    logger: options.logger ?? ((message: string) => console.warn(message)),
  };
}
