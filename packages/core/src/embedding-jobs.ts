import {
  type BackfillOptions,
  ConfigError,
  type EmbeddingJobReport,
  type PendingEntry,
  type ReindexOptions,
} from "@memory/api";
import type { PendingSource } from "./embedding-worker.js";
import type { FacadeContext, PendingBatchOf } from "./facade-context.js";
import { embedThrough, vectorUnavailable } from "./vector-state.js";

/** Embeds `entries` and saves the vectors the driver still wants (content unchanged). */
async function embedAndSave(
  context: FacadeContext,
  entries: readonly PendingEntry[],
  signal?: AbortSignal,
): Promise<void> {
  const embedder = context.options.embedder!;
  const vectors = await embedThrough(
    context,
    entries.map((entry) => entry.content),
    signal,
  );
  if (signal?.aborted) return;
  context.assertOpen();
  await context.driver.vectors.save(
    entries.map((entry, index) => ({ entry, vector: vectors[index]! })),
    embedder.fingerprint,
  );
  for (const namespace of new Set(entries.map((entry) => entry.namespace)))
    context.written(namespace);
}

/**
 * The deferred-embedding worker's view of the driver: pending entries in the driver's order,
 * read when their batch is processed (waiting content never sits in memory).
 */
export function pendingSource(
  context: () => FacadeContext,
  isClosed: () => boolean,
): PendingSource<unknown, PendingBatchOf> {
  return {
    async next(after) {
      if (isClosed()) return undefined;
      const facade = context();
      if (await vectorUnavailable(facade)) return undefined;
      const page = await facade.driver.vectors.pending(after, facade.options.embeddingBatchSize);
      if (page.entries.length === 0) return undefined;
      return { cursor: page.next, size: page.entries.length, entries: page.entries };
    },
    embed: (batch, signal) =>
      isClosed() ? Promise.resolve() : embedAndSave(context(), batch.entries, signal),
  };
}

async function embedPending(
  context: FacadeContext,
  options: ReindexOptions,
  total: number,
): Promise<EmbeddingJobReport> {
  const batchSize = Math.max(1, options.batchSize ?? context.options.embeddingBatchSize);
  let after: unknown;
  let embedded = 0;
  let failed = 0;
  options.onProgress?.({ done: 0, total });
  for (;;) {
    options.signal?.throwIfAborted();
    context.assertOpen();
    const page = await context.driver.vectors.pending(after, batchSize);
    if (page.entries.length === 0) break;
    after = page.next;
    try {
      await embedAndSave(context, page.entries);
      embedded += page.entries.length;
    } catch (error) {
      // Counted, not thrown: those entries keep working for keyword recall and stay pending.
      context.worker.lastError = error;
      failed += page.entries.length;
    }
    options.onProgress?.({ done: embedded + failed, total });
    if (page.next === undefined) break;
  }
  return { embedded, failed, remaining: await context.driver.vectors.countPending() };
}

/** Drops every vector, adopts the configured provider and embeds everything again. */
export async function reindex(
  context: FacadeContext,
  options: ReindexOptions,
): Promise<EmbeddingJobReport> {
  const { embedder } = context.options;
  if (!embedder) return { embedded: 0, failed: 0, remaining: 0 };
  await context.driver.vectors.reset(embedder.fingerprint);
  context.written();
  return embedPending(context, options, await context.driver.vectors.countPending());
}

/** Embeds only the entries still missing a vector in the current vector space. */
export async function backfill(
  context: FacadeContext,
  options: BackfillOptions,
): Promise<EmbeddingJobReport> {
  if (!context.options.embedder) return { embedded: 0, failed: 0, remaining: 0 };
  const reason = await vectorUnavailable(context);
  if (reason !== undefined)
    throw new ConfigError(`Cannot backfill embeddings: ${reason}. Run reindex() instead.`);
  return embedPending(context, options, await context.driver.vectors.countPending());
}
