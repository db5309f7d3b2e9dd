import {
  type BackendContext,
  ConfigError,
  type MemoryConfig,
  type StoreDescription,
} from "@memory/api";
import { assertKnownTableKeys, retrievalSettingsFromConfig } from "@memory/core";
import { createPostgresMemory, type PostgresMemory } from "./postgres-memory.js";
import { DEFAULT_SCHEMA } from "./postgres-options.js";

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
  assertKnownTableKeys("postgres", table as Record<string, unknown>);
  const { url, schema, max_connections: max } = table as Record<string, unknown>;
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

/** `[postgres].url`, else `MEMORY_POSTGRES_URL`, else `DATABASE_URL`. */
function connectionStringFor(
  table: PostgresConfigTable,
  env: Record<string, string | undefined>,
): string {
  const connectionString = table.url ?? env.MEMORY_POSTGRES_URL ?? env.DATABASE_URL;
  if (!connectionString) {
    throw new ConfigError(
      'backend = "postgres" needs a database: set [postgres].url in memory.toml, or MEMORY_POSTGRES_URL / DATABASE_URL (e.g. postgresql://user@localhost:5432/app).',
    );
  }
  return connectionString;
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
  const connectionString = connectionStringFor(table, env);
  return createPostgresMemory({
    connectionString,
    ...(table.schema !== undefined ? { schema: table.schema } : {}),
    ...(table.max_connections !== undefined ? { maxConnections: table.max_connections } : {}),
    ...(context.embedder ? { embedder: context.embedder } : {}),
    ...(context.chatModel ? { chatModel: context.chatModel } : {}),
    ...(context.log ? { logger: context.log } : {}),
    ...retrievalSettingsFromConfig(config.memory),
    deferEmbedding: config.memory.defer_embedding,
    embeddingCacheMax: config.memory.embedding_cache_max,
  });
}

/**
 * Which database and schema `config` opens (`BackendModule.describeStore`), without connecting.
 * The identity is `postgres://<host>:<port>/<database>#<schema>` (the user, password and
 * parameters do not change which tables are used); the location is the connection URL without
 * its password, plus the schema. A connection string that is not a URL (`host=... dbname=...`)
 * is used as is, minus any `password=`.
 */
export function describeStore(
  config: MemoryConfig,
  env: Record<string, string | undefined> = process.env,
): StoreDescription {
  const table = readTable(config);
  const connectionString = connectionStringFor(table, env);
  const schema = table.schema ?? DEFAULT_SCHEMA;
  let url: URL | undefined;
  try {
    url = new URL(connectionString);
  } catch {
    url = undefined;
  }
  if (url === undefined || (url.protocol !== "postgres:" && url.protocol !== "postgresql:")) {
    const safe = connectionString.replace(/password\s*=\s*('[^']*'|\S*)/gi, "password=***");
    return { identity: `postgres:${safe}#${schema}`, location: `${safe} (schema ${schema})` };
  }
  url.password = "";
  url.searchParams.delete("password");
  const host = url.searchParams.get("host") ?? url.hostname;
  const port = url.port || url.searchParams.get("port") || "5432";
  // Like libpq, a URL without a database name means the database named after the user.
  const database = decodeURIComponent(url.pathname.replace(/^\//, "") || url.username);
  return {
    identity: `postgres://${host}:${port}/${database}#${schema}`,
    location: `${url.href} (schema ${schema})`,
  };
}
