import {
  ConfigError,
  defaultConfig,
  type EmbeddingProvider,
  type MemorySettings,
} from "@memory/api";
import type pg from "pg";

/** The `[memory]` settings this backend reads; every key is optional here. */
export type PostgresSettings = Pick<
  MemorySettings,
  | "search_mode"
  | "merge_strategy"
  | "rrf_k"
  | "vector_weight"
  | "keyword_weight"
  | "fts_early_return_score"
  | "candidate_multiplier"
  | "half_life_days"
  | "recall_cache_size"
  | "recall_cache_ttl_seconds"
  | "defer_embedding"
>;

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

export interface PostgresMemoryOptions {
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
  /** `[memory]` settings (search mode, fusion, decay, cache, deferred embedding). */
  settings?: Partial<PostgresSettings>;
  hnsw?: HnswOptions;
  /**
   * How hybrid recall runs its two stages: `concurrent` (default) sends the keyword and the vector
   * query at once on two pool connections and fuses in JavaScript with `@memory/api`'s
   * `fuseRrf` / `fuseWeighted`, so it takes about as long as the slower stage; `single` runs both
   * stages and the fusion in one statement (one connection, stages one after the other).
   */
  hybridExecution?: "concurrent" | "single";
}

export const DEFAULT_SCHEMA = "memory";

// The same defaults as an empty memory.toml: the schema in @memory/api is their one source.
export const DEFAULT_SETTINGS: PostgresSettings = defaultConfig().memory;

export const DEFAULT_HNSW: Required<HnswOptions> = {
  m: 16,
  efConstruction: 64,
  // Not pgvector's 40: recall@10 was 0.98 at 40 and at 100, 1.0 at 200 (bench/, 100k clustered
  // 384-d vectors), for about 0.5 ms more per query.
  efSearch: 200,
  buildMemoryMb: 1024,
};

export interface ResolvedPostgresOptions {
  schema: string;
  settings: PostgresSettings;
  hnsw: Required<HnswOptions>;
  hybridExecution: "concurrent" | "single";
}

// Schema names end up inside identifiers and advisory-lock keys; keep them boring.
const SCHEMA_PATTERN = /^[a-z_][a-z0-9_]{0,62}$/;

/** Validates the options (no I/O) and applies defaults. */
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
  const settings = { ...DEFAULT_SETTINGS };
  for (const [name, value] of Object.entries(options.settings ?? {})) {
    if (value !== undefined) (settings as Record<string, unknown>)[name] = value;
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
  const hybridExecution = options.hybridExecution ?? "concurrent";
  if (hybridExecution !== "concurrent" && hybridExecution !== "single") {
    throw new ConfigError(
      `hybridExecution must be "concurrent" or "single", got ${JSON.stringify(hybridExecution)}.`,
    );
  }
  return { schema, settings, hnsw, hybridExecution };
}
