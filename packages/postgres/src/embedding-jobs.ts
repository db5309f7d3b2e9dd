import {
  EmbeddingError,
  type EmbeddingJobReport,
  type EmbeddingProvider,
  type PendingSource,
  type ReindexOptions,
  validateLimit,
} from "@memory/api";
import type { Database } from "./database.js";
import type { EmbeddingJob, PostgresBatch } from "./deferred-embeddings.js";
import type { Tables } from "./filter-sql.js";
import { encodeVector, Params } from "./sql.js";
import type { VectorState } from "./vector-store.js";

/**
 * Embeds documents; a failure gives `undefined` (the entry stays pending), never an error. The
 * failure goes to `onError` (healthCheck's `lastEmbeddingError`).
 */
export async function embedDocuments(
  embedder: EmbeddingProvider,
  texts: string[],
  onError?: (error: unknown) => void,
): Promise<(number[] | undefined)[]> {
  try {
    const vectors = await embedder.embed(texts, { purpose: "document" });
    return texts.map((_, i) => {
      const vector = vectors[i];
      // Wrong sizes and NaN/Infinity are refused here, before anything is stored.
      return Array.isArray(vector) &&
        vector.length === embedder.dimensions &&
        vector.every(Number.isFinite)
        ? vector
        : undefined;
    });
  } catch (error) {
    // An embedding failure never loses the write: the entry stays pending for backfill.
    onError?.(error);
    return texts.map(() => undefined);
  }
}

/** Embeds one batch for the deferred worker; throws EmbeddingError so the worker stops and backs off. */
async function embedBatch(
  embedder: EmbeddingProvider,
  texts: string[],
  signal: AbortSignal,
): Promise<number[][]> {
  let vectors: number[][];
  try {
    vectors = await embedder.embed(texts, { purpose: "document", signal });
  } catch (error) {
    throw new EmbeddingError(
      `The embedding provider ${embedder.fingerprint} failed: ${error instanceof Error ? error.message : String(error)}. The entries stay pending; the background worker retries later (or run backfillEmbeddings()).`,
      { cause: error },
    );
  }
  if (
    vectors.length !== texts.length ||
    vectors.some(
      (vector) =>
        !Array.isArray(vector) ||
        vector.length !== embedder.dimensions ||
        !vector.every(Number.isFinite),
    )
  ) {
    throw new EmbeddingError(
      `The embedding provider ${embedder.fingerprint} returned vectors of the wrong count, size or with NaN/Infinity (expected ${texts.length} x ${embedder.dimensions}); nothing was stored from it.`,
    );
  }
  return vectors;
}

const PENDING_AFTER = (tables: Tables) =>
  `SELECT m.id, m.content, m.content_hash FROM ${tables.memories} m
   WHERE m.id > $1 AND NOT EXISTS (
     SELECT 1 FROM ${tables.vectors} v WHERE v.memory_id = m.id AND v.content_hash = m.content_hash)
   ORDER BY m.id LIMIT $2`;

/** The vector space and provider the deferred worker writes with, while vectors are usable. */
export interface UsableVectors {
  state: VectorState;
  embedder: EmbeddingProvider;
}

/**
 * The deferred worker's view of the schema: pending rows by id, `batchSize` at a time, their
 * content read only when their batch is embedded. `usable()` is undefined while vectors are not
 * usable (not opened yet, no provider, other vector space): nothing is pending for the worker then.
 */
export function pendingSource(
  db: Database,
  tables: Tables,
  usable: () => UsableVectors | undefined,
  batchSize: number,
): PendingSource<string, PostgresBatch> {
  return {
    async next(after) {
      if (!usable()) return undefined;
      const result = await db.query<{ id: string; content: string; content_hash: string }>(
        "deferred embeddings",
        PENDING_AFTER(tables),
        [after ?? "", batchSize],
      );
      if (result.rows.length === 0) return undefined;
      return {
        cursor: result.rows[result.rows.length - 1]!.id,
        size: result.rows.length,
        jobs: result.rows.map((row) => ({
          id: row.id,
          content: row.content,
          hash: row.content_hash,
        })),
      };
    },
    async embed(batch, signal) {
      const before = usable();
      if (!before) return;
      const vectors = await embedBatch(
        before.embedder,
        batch.jobs.map((job) => job.content),
        signal,
      );
      // A reindex in between may have replaced the vector table: write into the current one.
      const after = usable();
      if (!after || signal.aborted) return;
      await writeVectors(db, tables, after.state, batch.jobs, vectors);
    },
  };
}

/**
 * Writes embeddings for jobs whose content has not changed since they were read: the
 * content-hash guard drops an embedding computed for text that a later store replaced. Writing
 * the same (entry, hash) twice, as two processes draining one schema may, just replaces the
 * vector with an equal one.
 */
export async function writeVectors(
  db: Database,
  tables: Tables,
  state: VectorState,
  jobs: readonly EmbeddingJob[],
  vectors: readonly (number[] | undefined)[],
): Promise<number> {
  const params = new Params();
  const rows: string[] = [];
  jobs.forEach((job, i) => {
    const vector = vectors[i];
    if (vector === undefined) return;
    rows.push(
      `(${params.add(job.id)}, ${params.add(job.hash)}, ${params.add(encodeVector(vector))}::${state.vectorType})`,
    );
  });
  if (rows.length === 0) return 0;
  const result = await db.query(
    "writing embeddings",
    `INSERT INTO ${tables.vectors} (memory_id, content_hash, embedding)
     SELECT m.id, m.content_hash, x.embedding FROM (VALUES ${rows.join(", ")}) AS x(id, hash, embedding)
     JOIN ${tables.memories} m ON m.id = x.id AND m.content_hash = x.hash
     ON CONFLICT (memory_id) DO UPDATE SET embedding = excluded.embedding, content_hash = excluded.content_hash`,
    params.values,
  );
  return result.rowCount ?? 0;
}

/** Entries without an embedding of their current content (all of them when the space is stale). */
export async function pendingCount(
  db: Database,
  tables: Tables,
  state: VectorState,
): Promise<number> {
  const text =
    state.status === "ok"
      ? `SELECT count(*) AS n FROM ${tables.memories} m
         WHERE NOT EXISTS (SELECT 1 FROM ${tables.vectors} v WHERE v.memory_id = m.id AND v.content_hash = m.content_hash)`
      : `SELECT count(*) AS n FROM ${tables.memories}`;
  return Number((await db.query<{ n: string }>("counting pending embeddings", text)).rows[0]!.n);
}

/** Embeds every entry that has no current embedding, in batches, reporting progress. */
export async function embedMissing(
  db: Database,
  tables: Tables,
  state: VectorState,
  embedder: EmbeddingProvider,
  options: ReindexOptions & { assertOpen: () => void },
  operation: string,
): Promise<EmbeddingJobReport> {
  const batchSize = validateLimit(options.batchSize, 64, 10_000) || 64;
  const total = await pendingCount(db, tables, state);
  let embedded = 0;
  let failed = 0;
  let after = "";
  options.onProgress?.({ done: 0, total });
  for (;;) {
    options.assertOpen();
    if (options.signal?.aborted) throw options.signal.reason ?? new Error(`${operation} aborted`);
    // Keyset on id: a batch that fails to embed is skipped, never fetched again in a loop.
    const batch = await db.query<{ id: string; content: string; content_hash: string }>(
      operation,
      PENDING_AFTER(tables),
      [after, batchSize],
    );
    if (batch.rows.length === 0) break;
    after = batch.rows[batch.rows.length - 1]!.id;
    const jobs = batch.rows.map((row) => ({
      id: row.id,
      content: row.content,
      hash: row.content_hash,
    }));
    const vectors = await embedDocuments(
      embedder,
      jobs.map((job) => job.content),
    );
    embedded += await writeVectors(db, tables, state, jobs, vectors);
    failed += vectors.filter((vector) => vector === undefined).length;
    options.onProgress?.({ done: embedded + failed, total });
  }
  return { embedded, failed, remaining: await pendingCount(db, tables, state) };
}
