import type { EmbedderState } from "./embeddings/embedder-state.js";
import type { EmbeddingCache } from "./embeddings/embedding-cache.js";
import type { OpenedDatabase } from "./open-database.js";
import type { ResolvedSqliteOptions } from "./sqlite-options.js";
import type { StatementCache } from "./statement-cache.js";
import type { VectorStore } from "./vectors/vector-store.js";

/** An open, migrated store: what the driver's parts share. */
export interface Opened {
  connection: OpenedDatabase;
  statements: StatementCache;
  embedder: EmbedderState;
  cache: EmbeddingCache;
  vectors: VectorStore;
  options: ResolvedSqliteOptions;
}
