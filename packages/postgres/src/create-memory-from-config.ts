import { type BackendContext, ConfigError, type MemoryConfig } from "@memory/api";
import { createPostgresMemory, type PostgresMemory } from "./postgres-memory.js";
import type { PostgresSettings } from "./postgres-options.js";

/** The `[postgres]` table of `memory.toml`. */
export interface PostgresConfigTable {
  /** Connection string; default `MEMORY_POSTGRES_URL`, then `DATABASE_URL`. */
  url?: string;
  /** Schema for the tables; default `memory`. */
  schema?: string;
  /** Pool size; default 10. */
  max_connections?: number;
}

function readTable(config: MemoryConfig): PostgresConfigTable {
  const table = config.postgres ?? {};
  if (typeof table !== "object" || table === null || Array.isArray(table)) {
    throw new ConfigError(
      '[postgres] must be a table, e.g. [postgres]\\nurl = "postgresql://localhost/app".',
    );
  }
  const { url, schema, max_connections: max, ...unknown } = table as Record<string, unknown>;
  const extra = Object.keys(unknown);
  if (extra.length > 0) {
    throw new ConfigError(
      `Unknown key(s) ${extra.map((key) => `[postgres].${key}`).join(", ")}; allowed: url, schema, max_connections.`,
    );
  }
  if (url !== undefined && (typeof url !== "string" || url === ""))
    throw new ConfigError("[postgres].url must be a non-empty string.");
  if (schema !== undefined && typeof schema !== "string")
    throw new ConfigError("[postgres].schema must be a string.");
  if (max !== undefined && (typeof max !== "number" || !Number.isInteger(max) || max < 1)) {
    throw new ConfigError("[postgres].max_connections must be a positive integer.");
  }
  return {
    url: url as string | undefined,
    schema: schema as string | undefined,
    max_connections: max as number | undefined,
  };
}

/**
 * The entry point `createMemory` (from `@memory/api`) calls when `backend = "postgres"`. Reads
 * `[postgres]` (url, schema, max_connections) and the retrieval keys of `[memory]`.
 */
export function createMemoryFromConfig(
  config: MemoryConfig,
  context: BackendContext = {},
  env: Record<string, string | undefined> = process.env,
): PostgresMemory {
  const table = readTable(config);
  const connectionString = table.url ?? env.MEMORY_POSTGRES_URL ?? env.DATABASE_URL;
  if (!connectionString) {
    throw new ConfigError(
      'backend = "postgres" needs a database: set [postgres].url in memory.toml, or MEMORY_POSTGRES_URL / DATABASE_URL (e.g. postgresql://user@localhost:5432/app).',
    );
  }
  const memory = config.memory;
  const settings: Partial<PostgresSettings> = {
    search_mode: memory.search_mode,
    merge_strategy: memory.merge_strategy,
    rrf_k: memory.rrf_k,
    vector_weight: memory.vector_weight,
    keyword_weight: memory.keyword_weight,
    fts_early_return_score: memory.fts_early_return_score,
    candidate_multiplier: memory.candidate_multiplier,
    half_life_days: memory.half_life_days,
    recall_cache_size: memory.recall_cache_size,
    recall_cache_ttl_seconds: memory.recall_cache_ttl_seconds,
    defer_embedding: memory.defer_embedding,
  };
  return createPostgresMemory({
    connectionString,
    ...(table.schema !== undefined ? { schema: table.schema } : {}),
    ...(table.max_connections !== undefined ? { maxConnections: table.max_connections } : {}),
    ...(context.embedder ? { embedder: context.embedder } : {}),
    settings,
  });
}
