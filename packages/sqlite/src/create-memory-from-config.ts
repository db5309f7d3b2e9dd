import { join } from "node:path";
import { type BackendContext, ConfigError, type Memory, type MemoryConfig } from "@memory/api";
import { createSqliteMemory } from "./sqlite-memory.js";
import type { SqliteMemoryOptions } from "./sqlite-options.js";

/** The optional `[sqlite]` table of memory.toml. */
interface SqliteTable {
  path?: string;
  fallback_to_none?: boolean;
}

function sqliteTable(config: MemoryConfig): SqliteTable {
  const table = config.sqlite;
  if (table === undefined) return {};
  if (typeof table !== "object" || table === null)
    throw new ConfigError("[sqlite] must be a table.");
  const { path, fallback_to_none } = table as Record<string, unknown>;
  if (path !== undefined && (typeof path !== "string" || path === "")) {
    throw new ConfigError("[sqlite].path must be a non-empty string (the database file).");
  }
  if (fallback_to_none !== undefined && typeof fallback_to_none !== "boolean") {
    throw new ConfigError("[sqlite].fallback_to_none must be true or false.");
  }
  return {
    path: path as string | undefined,
    fallback_to_none: fallback_to_none as boolean | undefined,
  };
}

/** The options `createMemory` uses: `[sqlite].path`, else `<data_dir>/memory/brain.db`. */
export function sqliteOptionsFromConfig(
  config: MemoryConfig,
  context: BackendContext = {},
): SqliteMemoryOptions {
  const settings = config.memory;
  const table = sqliteTable(config);
  const options: SqliteMemoryOptions = {
    path: table.path ?? join(settings.data_dir, "memory", "brain.db"),
    searchMode: settings.search_mode,
    mergeStrategy: settings.merge_strategy,
    rrfK: settings.rrf_k,
    vectorWeight: settings.vector_weight,
    keywordWeight: settings.keyword_weight,
    ftsEarlyReturnScore: settings.fts_early_return_score,
    candidateMultiplier: settings.candidate_multiplier,
    halfLifeDays: settings.half_life_days,
    recallCacheSize: settings.recall_cache_size,
    recallCacheTtlSeconds: settings.recall_cache_ttl_seconds,
    deferEmbedding: settings.defer_embedding,
    embeddingCacheMax: settings.embedding_cache_max,
    fallbackToNone: table.fallback_to_none ?? false,
  };
  if (context.embedder) options.embedder = context.embedder;
  return options;
}

/** Entry point for `createMemory` (`backend = "sqlite"`). The database opens on first use. */
export function createMemoryFromConfig(config: MemoryConfig, context: BackendContext = {}): Memory {
  return createSqliteMemory(sqliteOptionsFromConfig(config, context));
}
