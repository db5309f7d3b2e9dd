import {
  type ChatModel,
  ConfigError,
  type EmbeddingProvider,
  type RetrievalSettings,
} from "@memory/api";
import type { EmbeddingWorkerOptions } from "@memory/core";
import type pg from "pg";

/** The deferred-embedding worker's timing (tests inject `sleep`) plus the entries per batch. */
export interface PostgresWorkerOptions extends EmbeddingWorkerOptions {
  /** Entries per provider call (and per read of pending rows). Default 64. */
  batchSize?: number;
}

/** HNSW tuning (pgvector). */
export interface HnswOptions {
  /** Graph degree, used when the index is created. Default 16 (pgvector's default). */
  m?: number;
  /** Candidate list size while building. Default 64 (pgvector's default). */
  efConstruction?: number;
  /** Candidate list size per query (`hnsw.ef_search`). Default 200. */
  efSearch?: number;
  /**
   * `maintenance_work_mem` in MiB for the index rebuild after a bulk import (set for that one
   * session only). The build is much faster when the graph fits. Default 1024.
   */
  buildMemoryMb?: number;
}

/**
 * Options of {@link createPostgresMemory}. The retrieval options (`searchMode`, `mergeStrategy`,
 * `minScore`, `candidateMultiplier`, ...) are `RetrievalSettings` from `@memory/api`: the
 * `[memory]` keys of memory.toml in camelCase, with the same defaults and limits as every
 * other backend.
 */
export interface PostgresMemoryOptions extends Partial<RetrievalSettings> {
  /** `postgresql://user@host:5432/db`. Ignored when `pool` is given. */
  connectionString?: string;
  /** An existing pool. The memory never ends a pool it did not create. */
  pool?: pg.Pool;
  /** Pool size when the memory creates the pool. Default 10. */
  maxConnections?: number;
  /** Schema holding the tables; created when missing. Default `memory`. */
  schema?: string;
  /** Embedding provider; absent means keyword-only recall (said so in `explain.degraded`). */
  embedder?: EmbeddingProvider;
  /**
   * The chat model that confirms conflict decisions close to the line (`conflictConfirm: "chat"`);
   * without one the rules decide alone.
   */
  chatModel?: ChatModel;
  /** `defer_embedding`: `store` returns before the embedding is computed. Default false. */
  deferEmbedding?: boolean;
  /**
   * `embedding_cache_max`: query embeddings kept in process memory (LRU; 0 keeps none), so an
   * agent asking the same thing again costs no provider call. Default 10 000.
   */
  embeddingCacheMax?: number;
  /** Where warnings go (a re-index after a text_language change, a close timeout). Default `console.warn`. */
  logger?: (message: string) => void;
  hnsw?: HnswOptions;
  /**
   * @deprecated Accepted and ignored. Hybrid recall always sends its keyword and vector stages
   * at once on two pool connections; the single-statement SQL fusion (`"single"`) is gone, since
   * `@memory/api`'s recall engine scores and fuses on every backend.
   */
  hybridExecution?: "concurrent" | "single";
  /** Clock for recall's time decay and lease expiry (tests). Default `Date.now`. */
  now?: () => number;
  /**
   * The deferred-embedding worker: entries per batch (default 64), when it wakes up by itself
   * (resume after open, retry backoff) and the sleep it uses (tests inject it).
   */
  embeddingWorker?: PostgresWorkerOptions;
}

export const DEFAULT_SCHEMA = "memory";

export const DEFAULT_HNSW: Required<HnswOptions> = {
  m: 16,
  efConstruction: 64,
  // Not pgvector's 40: recall@10 was 0.98 at 40 and at 100, 1.0 at 200 (bench/, 100k clustered
  // 384-d vectors), for about 0.5 ms more per query.
  efSearch: 200,
  buildMemoryMb: 1024,
};

/** The driver's options, validated; the retrieval settings are the facade's (validated there). */
export interface ResolvedPostgresOptions {
  schema: string;
  embeddingCacheMax: number;
  hnsw: Required<HnswOptions>;
}

export const DEFAULT_EMBEDDING_CACHE_MAX = 10_000;

// Schema names end up inside identifiers and advisory-lock keys; keep them boring.
const SCHEMA_PATTERN = /^[a-z_][a-z0-9_]{0,62}$/;

/** Validates the storage options (no I/O) and applies defaults. */
export function resolvePostgresOptions(options: PostgresMemoryOptions): ResolvedPostgresOptions {
  if (!options.pool && !options.connectionString) {
    throw new ConfigError(
      "PostgreSQL memory needs a connection: pass { connectionString } (or [postgres].url, MEMORY_POSTGRES_URL, DATABASE_URL) or an existing pg.Pool as { pool }.",
    );
  }
  const schema = options.schema ?? DEFAULT_SCHEMA;
  if (!SCHEMA_PATTERN.test(schema)) {
    throw new ConfigError(
      `schema ${JSON.stringify(schema)} is not valid: use 1-63 lower-case letters, digits or "_", starting with a letter or "_".`,
    );
  }
  if ("settings" in options && (options as { settings?: unknown }).settings !== undefined) {
    throw new ConfigError(
      "PostgreSQL memory options: `settings` was replaced by top-level camelCase retrieval options (searchMode, mergeStrategy, minScore, ...) and deferEmbedding, as in @memory/sqlite.",
    );
  }
  const deferEmbedding = options.deferEmbedding ?? false;
  if (typeof deferEmbedding !== "boolean") {
    throw new ConfigError(
      `deferEmbedding must be true or false, got ${JSON.stringify(deferEmbedding)}.`,
    );
  }
  const embeddingCacheMax = options.embeddingCacheMax ?? DEFAULT_EMBEDDING_CACHE_MAX;
  if (!Number.isInteger(embeddingCacheMax) || embeddingCacheMax < 0) {
    throw new ConfigError(
      `embeddingCacheMax must be an integer >= 0 (embedding_cache_max), got ${JSON.stringify(embeddingCacheMax)}.`,
    );
  }
  const hnsw = { ...DEFAULT_HNSW, ...options.hnsw };
  for (const [name, value] of Object.entries(hnsw)) {
    if (!Number.isInteger(value) || value < 1) {
      throw new ConfigError(`hnsw.${name} must be a positive integer, got ${value}.`);
    }
  }
  if (options.maxConnections !== undefined && !(options.maxConnections >= 1)) {
    throw new ConfigError(`maxConnections must be at least 1, got ${options.maxConnections}.`);
  }
  const hybridExecution = options.hybridExecution;
  if (
    hybridExecution !== undefined &&
    hybridExecution !== "concurrent" &&
    hybridExecution !== "single"
  ) {
    throw new ConfigError(
      `hybridExecution must be "concurrent" or "single" (it is ignored), got ${JSON.stringify(hybridExecution)}.`,
    );
  }
  return { schema, embeddingCacheMax, hnsw };
}
