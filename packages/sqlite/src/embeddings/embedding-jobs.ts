import {
  type BackfillOptions,
  ConfigError,
  type EmbeddingJobReport,
  MemoryClosedError,
  type ReindexOptions,
} from "@memory/api";
import { withBusyRetry } from "../busy-retry.js";
import type { Opened } from "../opened-store.js";
import type { EmbeddingJob } from "./embedding-queue.js";

/** Embeds one batch and writes the vectors; the queue's processor and the import/backfill path. */
export async function embedJobs(opened: Opened, jobs: EmbeddingJob[]): Promise<void> {
  if (!opened.embedder.usable || opened.isClosed()) return;
  const vectors = await opened.embedder.embed(
    jobs.map((job) => job.content),
    "document",
  );
  if (opened.isClosed()) return;
  await withBusyRetry(() =>
    opened.connection.db
      .transaction(() => {
        jobs.forEach((job, index) => {
          opened.vectors.write(job.docId, job.namespace, job.hash, vectors[index]!);
        });
      })
      .immediate(),
  );
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

async function embedMissing(
  opened: Opened,
  options: ReindexOptions,
  all: boolean,
): Promise<EmbeddingJobReport> {
  const total = all
    ? (opened.statements.get("SELECT count(*) AS n FROM memories").get() as { n: number }).n
    : pendingCount(opened);
  const batchSize = options.batchSize ?? opened.options.embeddingBatchSize;
  const select = opened.statements.get(
    `SELECT m.doc_id, m.namespace, m.content_hash, m.content FROM memories m WHERE m.doc_id > ? AND NOT EXISTS
     (SELECT 1 FROM memory_vectors v WHERE v.doc_id = m.doc_id AND v.content_hash = m.content_hash) ORDER BY m.doc_id LIMIT ?`,
  );
  let after = 0;
  let embedded = 0;
  let failed = 0;
  options.onProgress?.({ done: 0, total });
  for (;;) {
    options.signal?.throwIfAborted();
    if (opened.isClosed()) throw new MemoryClosedError("sqlite");
    const rows = select.all(after, batchSize) as {
      doc_id: number;
      namespace: string;
      content_hash: string;
      content: string;
    }[];
    if (rows.length === 0) break;
    after = rows.at(-1)!.doc_id;
    const result = await embedInBatches(
      opened,
      rows.map((row) => ({
        docId: row.doc_id,
        namespace: row.namespace,
        hash: row.content_hash,
        content: row.content,
      })),
    );
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
