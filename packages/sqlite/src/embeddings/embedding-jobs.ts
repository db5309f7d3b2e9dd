import {
  type BackfillOptions,
  ConfigError,
  type EmbeddingJobReport,
  MemoryClosedError,
  type PendingBatch,
  type PendingSource,
  type ReindexOptions,
} from "@memory/api";
import { withBusyRetry } from "../busy-retry.js";
import type { Opened } from "../opened-store.js";

/** One entry to embed: the entry and the content hash the vector must match when written. */
export interface EmbeddingJob {
  docId: number;
  namespace: string;
  hash: string;
  content: string;
}

/** Embeds one batch and writes the vectors; the worker's and the import/backfill path. */
export async function embedJobs(
  opened: Opened,
  jobs: EmbeddingJob[],
  signal?: AbortSignal,
): Promise<void> {
  if (!opened.embedder.usable || opened.isClosed()) return;
  const vectors = await opened.embedder.embed(
    jobs.map((job) => job.content),
    "document",
    signal,
  );
  if (opened.isClosed() || signal?.aborted) return;
  await withBusyRetry(() => {
    // Checked in the retried body: close() may run while a busy retry waits.
    if (opened.isClosed()) return;
    opened.connection.db
      .transaction(() => {
        jobs.forEach((job, index) => {
          opened.vectors.write(job.docId, job.namespace, job.hash, vectors[index]!);
        });
      })
      .immediate();
  });
  for (const namespace of new Set(jobs.map((job) => job.namespace))) opened.invalidate(namespace);
}

/** Embeds `jobs` in provider-sized slices; a failed slice is counted, not thrown. */
export async function embedInBatches(
  opened: Opened,
  jobs: EmbeddingJob[],
): Promise<{ embedded: number; failed: number }> {
  let embedded = 0;
  let failed = 0;
  const size = opened.options.embeddingBatchSize;
  for (let start = 0; start < jobs.length; start += size) {
    const slice = jobs.slice(start, start + size);
    try {
      await embedJobs(opened, slice);
      embedded += slice.length;
    } catch (error) {
      opened.queue.lastError = error;
      failed += slice.length;
    }
  }
  return { embedded, failed };
}

/** Entries whose current content has no vector (0 when no provider is configured). */
export function pendingCount(opened: Opened): number {
  if (!opened.embedder.provider) return 0;
  return (
    opened.statements
      .get(
        `SELECT count(*) AS n FROM memories m WHERE NOT EXISTS
         (SELECT 1 FROM memory_vectors v WHERE v.doc_id = m.doc_id AND v.content_hash = m.content_hash)`,
      )
      .get() as { n: number }
  ).n;
}

const PENDING_AFTER = `SELECT m.doc_id, m.namespace, m.content_hash, m.content FROM memories m WHERE m.doc_id > ? AND NOT EXISTS
     (SELECT 1 FROM memory_vectors v WHERE v.doc_id = m.doc_id AND v.content_hash = m.content_hash) ORDER BY m.doc_id LIMIT ?`;

function pendingAfter(opened: Opened, after: number, limit: number): EmbeddingJob[] {
  const rows = opened.statements.get(PENDING_AFTER).all(after, limit) as {
    doc_id: number;
    namespace: string;
    content_hash: string;
    content: string;
  }[];
  return rows.map((row) => ({
    docId: row.doc_id,
    namespace: row.namespace,
    hash: row.content_hash,
    content: row.content,
  }));
}

export interface SqliteBatch extends PendingBatch<number> {
  jobs: EmbeddingJob[];
}

/**
 * The deferred-embedding worker's view of the store: pending rows by doc id, read when their
 * batch is processed (so the content of waiting entries never sits in memory).
 */
export function pendingSource(store: () => Opened): PendingSource<number, SqliteBatch> {
  return {
    next(after) {
      const opened = store();
      if (opened.isClosed() || !opened.embedder.usable) return undefined;
      const jobs = pendingAfter(opened, after ?? 0, opened.options.embeddingBatchSize);
      if (jobs.length === 0) return undefined;
      return { cursor: jobs.at(-1)!.docId, size: jobs.length, jobs };
    },
    embed: (batch, signal) => embedJobs(store(), batch.jobs, signal),
  };
}

async function embedMissing(
  opened: Opened,
  options: ReindexOptions,
  all: boolean,
): Promise<EmbeddingJobReport> {
  const total = all
    ? (opened.statements.get("SELECT count(*) AS n FROM memories").get() as { n: number }).n
    : pendingCount(opened);
  const batchSize = options.batchSize ?? opened.options.embeddingBatchSize;
  let after = 0;
  let embedded = 0;
  let failed = 0;
  options.onProgress?.({ done: 0, total });
  for (;;) {
    options.signal?.throwIfAborted();
    if (opened.isClosed()) throw new MemoryClosedError("sqlite");
    const jobs = pendingAfter(opened, after, batchSize);
    if (jobs.length === 0) break;
    after = jobs.at(-1)!.docId;
    const result = await embedInBatches(opened, jobs);
    embedded += result.embedded;
    failed += result.failed;
    options.onProgress?.({ done: embedded + failed, total });
  }
  return { embedded, failed, remaining: pendingCount(opened) };
}

/** Drops every vector, adopts the configured provider and embeds everything again. */
export async function reindexEmbeddings(
  opened: Opened,
  options: ReindexOptions,
): Promise<EmbeddingJobReport> {
  const { embedder } = opened;
  if (!embedder.provider) return { embedded: 0, failed: 0, remaining: 0 };
  opened.connection.db
    .transaction(() => {
      opened.vectors.clear();
      embedder.adoptProvider();
    })
    .immediate();
  opened.vectors.reset(embedder.provider.dimensions);
  opened.invalidate();
  return embedMissing(opened, options, true);
}

/** Embeds only the entries still missing a vector in the current vector space. */
export async function backfillEmbeddings(
  opened: Opened,
  options: BackfillOptions,
): Promise<EmbeddingJobReport> {
  const { embedder } = opened;
  if (!embedder.provider) return { embedded: 0, failed: 0, remaining: 0 };
  if (!embedder.usable) {
    throw new ConfigError(`Cannot backfill embeddings: ${embedder.reason}. Run reindex() instead.`);
  }
  return embedMissing(opened, options, false);
}
