import { realpathSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import {
  type BackendContext,
  type BackendDoctorHints,
  ConfigError,
  type Memory,
  type MemoryConfig,
  type StoreDescription,
} from "@memory/api";
import { assertKnownTableKeys, retrievalSettingsFromConfig } from "@memory/core";
import { createSqliteMemory } from "./sqlite-memory.js";
import type { SqliteMemoryOptions } from "./sqlite-options.js";

/** The optional `[sqlite]` table of memory.toml. */
interface SqliteTable {
  path?: string;
  fallback_to_none?: boolean;
  checkpoint?: "inline" | "background";
}

const CHECKPOINTS = ["inline", "background"] as const;

function sqliteTable(config: MemoryConfig): SqliteTable {
  const table = config.sqlite;
  if (table === undefined) return {};
  if (typeof table !== "object" || table === null)
    throw new ConfigError("[sqlite] must be a table.");
  assertKnownTableKeys("sqlite", table as Record<string, unknown>);
  const { path, fallback_to_none, checkpoint } = table as Record<string, unknown>;
  if (path !== undefined && (typeof path !== "string" || path === "")) {
    throw new ConfigError("[sqlite].path must be a non-empty string (the database file).");
  }
  if (fallback_to_none !== undefined && typeof fallback_to_none !== "boolean") {
    throw new ConfigError("[sqlite].fallback_to_none must be true or false.");
  }
  if (checkpoint !== undefined && !CHECKPOINTS.includes(checkpoint as "inline")) {
    throw new ConfigError(
      `[sqlite].checkpoint must be "background" (a thread of its own, the default) or "inline", got ${JSON.stringify(checkpoint)}.`,
    );
  }
  return {
    path: path as string | undefined,
    fallback_to_none: fallback_to_none as boolean | undefined,
    checkpoint: checkpoint as SqliteTable["checkpoint"],
  };
}

/**
 * The database file a configuration opens: `[sqlite].path`, else `<data_dir>/memory/brain.db`
 * (relative to the working directory when relative; `:memory:` as is). Used by both
 * `sqliteOptionsFromConfig` and `describeStore`, so they cannot disagree.
 */
export function sqliteDatabasePath(config: MemoryConfig): string {
  return sqliteTable(config).path ?? join(config.memory.data_dir, "memory", "brain.db");
}

/** The options `createMemory` uses: the file of `sqliteDatabasePath` and the `[memory]` keys. */
export function sqliteOptionsFromConfig(
  config: MemoryConfig,
  context: BackendContext = {},
): SqliteMemoryOptions {
  const settings = config.memory;
  const table = sqliteTable(config);
  const options: SqliteMemoryOptions = {
    path: sqliteDatabasePath(config),
    ...retrievalSettingsFromConfig(settings),
    deferEmbedding: settings.defer_embedding,
    embeddingCacheMax: settings.embedding_cache_max,
    fallbackToNone: table.fallback_to_none ?? false,
    // A long-running opener (the server) is what memory.toml mostly configures.
    checkpoint: table.checkpoint ?? "background",
  };
  if (context.embedder) options.embedder = context.embedder;
  if (context.chatModel) options.chatModel = context.chatModel;
  if (context.log) options.logger = context.log;
  return options;
}

/** Entry point for `createMemory` (`backend = "sqlite"`). The database opens on first use. */
export function createMemoryFromConfig(config: MemoryConfig, context: BackendContext = {}): Memory {
  return createSqliteMemory(sqliteOptionsFromConfig(config, context));
}

let privateDatabases = 0;

/** The absolute file name with symbolic links resolved as far as the path exists. */
function canonicalFile(file: string): string {
  const absolute = resolve(file);
  try {
    return realpathSync.native(absolute);
  } catch {
    // Not created yet: resolve the directory it will be created in, if that exists.
    try {
      return join(realpathSync.native(dirname(absolute)), basename(absolute));
    } catch {
      return absolute;
    }
  }
}

/**
 * Which database file `config` opens (`BackendModule.describeStore`), without opening or
 * creating it: identity `sqlite:<absolute path, symlinks resolved>`, so a relative and an
 * absolute path to the same file compare equal. Every `:memory:` database is private to the
 * memory that opens it, so each description of one is distinct.
 */
export function describeStore(config: MemoryConfig): StoreDescription {
  const file = sqliteDatabasePath(config);
  if (file === ":memory:") {
    privateDatabases += 1;
    return { identity: `sqlite::memory:#${privateDatabases}`, location: ":memory:" };
  }
  const location = canonicalFile(file);
  return { identity: `sqlite:${location}`, location };
}

/** `BackendModule.doctorHints`: what `memory doctor` advises for a SQLite store. */
export const doctorHints: BackendDoctorHints = {
  notWritable: () =>
    "make the database file, its -wal/-shm files and its directory writable (and free disk space), or point [sqlite].path / data_dir in memory.toml at a writable place",
};
