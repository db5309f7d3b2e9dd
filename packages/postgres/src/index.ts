export {
  createMemoryFromConfig,
  describeStore,
  type PostgresConfigTable,
} from "./create-memory-from-config.js";
export { doctorHints } from "./doctor-hints.js";
export { MIGRATIONS, SCHEMA_VERSION } from "./migrations/index.js";
export { isConnectionError, toMemoryError } from "./postgres-errors.js";
export { createPostgresMemory, PostgresMemory } from "./postgres-memory.js";
export {
  DEFAULT_HNSW,
  DEFAULT_SCHEMA,
  type HnswOptions,
  type PostgresMemoryOptions,
} from "./postgres-options.js";
