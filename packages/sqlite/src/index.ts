export {
  createMemoryFromConfig,
  describeStore,
  doctorHints,
  sqliteDatabasePath,
  sqliteOptionsFromConfig,
} from "./create-memory-from-config.js";
export { SqliteDriver, type SqliteDriverOptions } from "./sqlite-driver.js";
export {
  createSqliteDriver,
  createSqliteMemory,
  SqliteMemory,
} from "./sqlite-memory.js";
export {
  type ResolvedSqliteOptions,
  resolveSqliteOptions,
  SQLITE_DEFAULTS,
  type SqliteMemoryOptions,
} from "./sqlite-options.js";
export { VectorIndex } from "./vectors/vector-index.js";
