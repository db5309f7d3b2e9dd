import type { RetrievalSettings } from "@memory/api";
import { MemoryFacade, type MemoryFacadeOptions, RETRIEVAL_SETTING_NAMES } from "@memory/core";
import { SqliteDriver } from "./sqlite-driver.js";
import type { SqliteMemoryOptions } from "./sqlite-options.js";

/** The facade's part of the SQLite options: provider, retrieval settings, embedding jobs, clock. */
export function sqliteFacadeOptions(options: SqliteMemoryOptions): MemoryFacadeOptions {
  const settings: Partial<RetrievalSettings> = {};
  for (const name of RETRIEVAL_SETTING_NAMES) {
    if (options[name] !== undefined) Object.assign(settings, { [name]: options[name] });
  }
  const facade: MemoryFacadeOptions = { settings };
  if (options.embedder) facade.embedder = options.embedder;
  if (options.chatModel) facade.chatModel = options.chatModel;
  if (options.deferEmbedding !== undefined) facade.deferEmbedding = options.deferEmbedding;
  if (options.embeddingBatchSize !== undefined)
    facade.embeddingBatchSize = options.embeddingBatchSize;
  if (options.closeTimeoutMs !== undefined) facade.closeTimeoutMs = options.closeTimeoutMs;
  if (options.fallbackToNone !== undefined) facade.fallbackToNone = options.fallbackToNone;
  if (options.logger) facade.logger = options.logger;
  if (options.now) facade.now = options.now;
  if (options.embeddingWorker) facade.embeddingWorker = options.embeddingWorker;
  return facade;
}

/** The SQLite driver of these options (decorators such as `@memory/lucid` wrap it). */
export function createSqliteDriver(options: SqliteMemoryOptions = {}): SqliteDriver {
  return new SqliteDriver({
    ...(options.path === undefined ? {} : { path: options.path }),
    ...(options.database === undefined ? {} : { database: options.database }),
    ...(options.embeddingCacheMax === undefined
      ? {}
      : { embeddingCacheMax: options.embeddingCacheMax }),
  });
}

/**
 * The embedded default backend: `@memory/core`'s facade over the SQLite driver
 * (better-sqlite3 + FTS5 + an in-memory int8 vector index). Nothing is opened until the first
 * operation (or `init()`).
 */
export class SqliteMemory extends MemoryFacade {
  constructor(options: SqliteMemoryOptions = {}) {
    super(createSqliteDriver(options), sqliteFacadeOptions(options));
  }
}

/** Creates the SQLite memory. Nothing is opened until the first operation (or `init()`). */
export function createSqliteMemory(options: SqliteMemoryOptions = {}): SqliteMemory {
  return new SqliteMemory(options);
}
