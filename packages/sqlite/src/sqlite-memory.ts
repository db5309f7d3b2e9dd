import { facadeOptionsFrom, MemoryFacade } from "@memory/core";
import { SqliteDriver } from "./sqlite-driver.js";
import type { SqliteMemoryOptions } from "./sqlite-options.js";

/** The SQLite driver of these options (decorators such as `@memory/lucid` wrap it). */
export function createSqliteDriver(options: SqliteMemoryOptions = {}): SqliteDriver {
  return new SqliteDriver({
    ...(options.path === undefined ? {} : { path: options.path }),
    ...(options.database === undefined ? {} : { database: options.database }),
    ...(options.embeddingCacheMax === undefined
      ? {}
      : { embeddingCacheMax: options.embeddingCacheMax }),
    ...(options.checkpoint === undefined ? {} : { checkpoint: options.checkpoint }),
  });
}

/**
 * The embedded default backend: `@memory/core`'s facade over the SQLite driver
 * (better-sqlite3 + FTS5 + an in-memory int8 vector index). Nothing is opened until the first
 * operation (or `init()`).
 */
export class SqliteMemory extends MemoryFacade {
  constructor(options: SqliteMemoryOptions = {}) {
    super(createSqliteDriver(options), facadeOptionsFrom(options));
  }
}

/** Creates the SQLite memory. Nothing is opened until the first operation (or `init()`). */
export function createSqliteMemory(options: SqliteMemoryOptions = {}): SqliteMemory {
  return new SqliteMemory(options);
}
