import type { EmbeddingWorker } from "@memory/api";
import type { EmbedderState } from "./embeddings/embedder-state.js";
import type { SqliteBatch } from "./embeddings/embedding-jobs.js";
import type { OpenedDatabase } from "./open-database.js";
import type { ResolvedSqliteOptions } from "./sqlite-options.js";
import type { StatementCache } from "./statement-cache.js";
import type { VectorStore } from "./vectors/vector-store.js";

/** An open, migrated store plus the few hooks back into the `SqliteMemory` that owns it. */
export interface Opened {
  connection: OpenedDatabase;
  statements: StatementCache;
  embedder: EmbedderState;
  vectors: VectorStore;
  /** The deferred-embedding worker; also holds the last embedding error for healthCheck. */
  queue: EmbeddingWorker<number, SqliteBatch>;
  options: ResolvedSqliteOptions;
  /** True once `close()` ran; long operations check it between awaits. */
  isClosed(): boolean;
  /** Drops cached recalls for one namespace, or all of them. */
  invalidate(namespace?: string): void;
}
