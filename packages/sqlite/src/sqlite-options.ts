import type { ChatModel, EmbeddingProvider, RetrievalSettings } from "@memory/api";
import type { EmbeddingWorkerOptions } from "@memory/core";
import { FACADE_DEFAULTS, resolveRetrievalSettings } from "@memory/core";
import type BetterSqlite3 from "better-sqlite3";

/**
 * Options of {@link createSqliteMemory}. The retrieval options (`searchMode`, `mergeStrategy`,
 * `minScore`, ...) are `RetrievalSettings` from `@memory/api`: the `[memory]` keys of
 * memory.toml in camelCase, with the same defaults and limits on every backend.
 */
export interface SqliteMemoryOptions extends Partial<RetrievalSettings> {
  /** Database file (created with its directory when missing). Ignored when `database` is given. */
  path?: string;
  /** An open better-sqlite3 connection to use instead of `path`; it is never closed by this package. */
  database?: BetterSqlite3.Database;
  /** Embedding provider; without one, recall is keyword-only and says so in `explain.degraded`. */
  embedder?: EmbeddingProvider;
  /**
   * The chat model that confirms conflict decisions close to the line (`conflictConfirm: "chat"`);
   * without one the rules decide alone.
   */
  chatModel?: ChatModel;
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
  /**
   * Where WAL checkpoints run: `inline` (default), in the connection whose commit crossed
   * SQLite's threshold; `background`, on a thread of their own once a second, so no request
   * waits on the disk (background-checkpoint.ts). `[sqlite] checkpoint` in memory.toml, where
   * the default is `background`. Ignored for `:memory:` and an adopted `database`.
   */
  checkpoint?: "inline" | "background";
  /** Where warnings go (fallback to none, adopted legacy vectors). Default `console.warn`. */
  logger?: (message: string) => void;
  /** Clock for recall's time decay and lease expiry (tests). Default `Date.now`. */
  now?: () => number;
  /**
   * When the deferred-embedding worker wakes up by itself (resume after open, retry backoff),
   * and the sleep it uses: tests inject it so nothing waits on the wall clock.
   */
  embeddingWorker?: EmbeddingWorkerOptions;
}

/** The options with every default applied. */
export interface ResolvedSqliteOptions {
  retrieval: RetrievalSettings;
  deferEmbedding: boolean;
  embeddingCacheMax: number;
  closeTimeoutMs: number;
  embeddingBatchSize: number;
  fallbackToNone: boolean;
  checkpoint: "inline" | "background";
  logger: (message: string) => void;
}

/** The defaults: the facade's (`@memory/core`, the same on every backend) plus SQLite's own. */
export const SQLITE_DEFAULTS = {
  ...FACADE_DEFAULTS,
  embeddingCacheMax: 10_000,
  checkpoint: "inline" as "inline" | "background",
};

export function resolveSqliteOptions(options: SqliteMemoryOptions): ResolvedSqliteOptions {
  const pick = <K extends keyof typeof SQLITE_DEFAULTS>(name: K): (typeof SQLITE_DEFAULTS)[K] =>
    (options[name] ?? SQLITE_DEFAULTS[name]) as (typeof SQLITE_DEFAULTS)[K];
  return {
    retrieval: resolveRetrievalSettings(options),
    deferEmbedding: pick("deferEmbedding"),
    embeddingCacheMax: pick("embeddingCacheMax"),
    closeTimeoutMs: pick("closeTimeoutMs"),
    embeddingBatchSize: pick("embeddingBatchSize"),
    fallbackToNone: pick("fallbackToNone"),
    checkpoint: pick("checkpoint"),
    logger: options.logger ?? ((message: string) => console.warn(message)),
  };
}
