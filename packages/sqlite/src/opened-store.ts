import type { EmbeddingProvider } from "@memory/api";
import type { EmbeddingCache } from "./embeddings/embedding-cache.js";
import type { QueryVectors } from "./embeddings/query-vectors.js";
import type { VectorSpace } from "./embeddings/vector-space.js";
import type { OpenedDatabase } from "./open-database.js";
import type { ResolvedSqliteOptions } from "./sqlite-options.js";
import type { StatementCache } from "./statement-cache.js";
import type { VectorStore } from "./vectors/vector-store.js";

/** An open, migrated store: what the driver's parts share. */
export interface Opened {
  connection: OpenedDatabase;
  statements: StatementCache;
  /** The provider the store was opened with (vector sizes, query embeddings); none: keyword-only. */
  provider: EmbeddingProvider | undefined;
  space: VectorSpace;
  queries: QueryVectors;
  cache: EmbeddingCache;
  vectors: VectorStore;
  options: ResolvedSqliteOptions;
}
