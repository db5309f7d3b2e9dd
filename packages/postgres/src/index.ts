export { createMemoryFromConfig, type PostgresConfigTable } from "./create-memory-from-config.js";
export { MIGRATIONS, SCHEMA_VERSION } from "./migrations/index.js";
export { isConnectionError, toMemoryError } from "./postgres-errors.js";
export { createPostgresMemory, PostgresMemory } from "./postgres-memory.js";
export {
  DEFAULT_HNSW,
  DEFAULT_SCHEMA,
  DEFAULT_SETTINGS,
  type HnswOptions,
  type PostgresMemoryOptions,
  type PostgresSettings,
} from "./postgres-options.js";
