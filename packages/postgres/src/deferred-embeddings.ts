import type { EmbeddingWorkerOptions, PendingBatch } from "@memory/api";

/**
 * Deferred embeddings on PostgreSQL run on the shared `EmbeddingWorker` of `@memory/api`; this
 * file holds what is PostgreSQL's own: the batch shape and the worker options.
 *
 * Several processes may drain one schema at once: there is no claim or lock, so two of them can
 * embed the same row. That is harmless by design: the vector is written with
 * `ON CONFLICT (memory_id) DO UPDATE`, joined on the row's current content hash, so a second
 * write replaces the vector of that content with an equal one and a stale vector is never written.
 */

/** The worker's timing (tests inject `sleep`) plus the rows read and embedded per batch. */
export interface PostgresWorkerOptions extends EmbeddingWorkerOptions {
  /** Entries per provider call (and per read of pending rows). Default 64. */
  batchSize?: number;
}

/** One entry waiting for its embedding; `hash` guards against content changed meanwhile. */
export interface EmbeddingJob {
  id: string;
  content: string;
  hash: string;
}

/** One batch of pending rows read from the schema: where the scan continues (entry id) and its entries. */
export interface PostgresBatch extends PendingBatch<string> {
  readonly jobs: readonly EmbeddingJob[];
}
