import {
  type ImportEntry,
  type ImportOptions,
  type ImportReport,
  importStoppedError,
  MemoryError,
  type NormalizedImportEntry,
  normalizeImportEntry,
  nowIso,
  type TextLanguage,
  validateEmbedding,
} from "@memory/api";
import type pg from "pg";
import type { EmbeddingJob } from "./deferred-embeddings.js";
import type { Tables } from "./filter-sql.js";
import { entryTerms } from "./search-terms.js";
import { contentHash, encodeVectorArray, Params } from "./sql.js";
import type { VectorState } from "./vector-store.js";

// Rows per statement. Columns travel as arrays, so there is no parameter limit; 2000 rows keep a
// statement's memory small while per-statement overhead disappears (measured in bench/).
const BATCH_SIZE = 2000;
// Batches written at once (each on its own connection).
const WRITERS = 2;

export interface ImportContext {
  tables: Tables;
  /** The store's `text_language` (the analyzer rules of its index terms). */
  language: TextLanguage;
  /** Quoted schema name. */
  schema: string;
  /** Set when vectors can be written. */
  vector: VectorState | undefined;
  /** The type OID of `vector` (the binary array format names its element type); set with `vector`. */
  vectorOid: number | undefined;
  /** True when a vector table exists, so vectors of changed content must be deleted. */
  staleVectors: boolean;
  /** Embeds entries that come without an embedding (absent: leave them pending). */
  embed: ((texts: string[]) => Promise<(number[] | undefined)[]>) | undefined;
  /** Queues entries left without an embedding for deferred embedding. */
  onDeferred: ((job: EmbeddingJob) => void) | undefined;
  /**
   * Bulk-load hooks. Index maintenance costs more than the rows themselves (HNSW insertion most,
   * then the GIN index of the tsvector), so a large import drops the indexes of the tables that
   * are empty and builds each once at the end (a build is several times faster than as many
   * inserts, and both builds run in parallel on the server).
   */
  bulk:
    | {
        empty(): Promise<BulkIndexes>;
        dropIndexes(which: BulkIndexes): Promise<void>;
        buildIndexes(which: BulkIndexes): Promise<void>;
      }
    | undefined;
  transaction: <T>(operation: string, work: (client: pg.PoolClient) => Promise<T>) => Promise<T>;
  assertOpen: () => void;
}

/** Which of the bulk-droppable indexes an import concerns. */
export interface BulkIndexes {
  /** The GIN index of `memories.search` (the entries table is empty). */
  search: boolean;
  /** The HNSW index of `memory_vectors` (the vector table is empty and vectors are written). */
  vectors: boolean;
}

interface Item {
  index: number;
  entry: NormalizedImportEntry;
  hash: string;
  terms: { terms: string; count: number };
  vector: number[] | undefined;
}

/**
 * An error caused by the entry itself (bad bytes, an oversized index, an id that belongs to
 * another key), which rejects the entry; anything else is a failure of the store, which stops
 * the import (`importStoppedError`) instead of being counted as bad input.
 */
function isEntryError(error: unknown): boolean {
  if (!MemoryError.isInstance(error)) return false;
  if (error.code === "INVALID_INPUT") return true;
  return error.code === "CONFLICT" && error.details?.code === "23505";
}

function rejection(index: number, key: unknown, error: unknown) {
  const code = MemoryError.isInstance(error) ? error.code : "INVALID_INPUT";
  const message = error instanceof Error ? error.message : String(error);
  return { index, ...(typeof key === "string" ? { key } : {}), code, message };
}

/**
 * One statement per batch: each column travels as one array parameter and `unnest` turns them
 * back into rows (15 parameters at most, whatever the batch size, so the statement is parsed and planned
 * in microseconds and batches can be large), upserted on (namespace, key). The vectors are one
 * `vector[]` parameter in PostgreSQL's binary array format holding pgvector's binary vectors, so
 * no float is printed or parsed. The search terms come from the shared analyzer; the tsvector
 * is generated from them by the server. Given ids and
 * timestamps are kept; missing ones come from the stored entry, then from now.
 */
function batchStatement(
  items: readonly Item[],
  context: ImportContext,
): { text: string; values: unknown[] } {
  const params = new Params();
  const now = params.add(nowIso());
  const vector = context.vector;
  const column = <T>(pick: (item: Item) => T) => items.map(pick);
  const arrays = [
    `${params.add(column((item) => item.entry.id ?? null))}::text[]`,
    `${params.add(column((item) => item.entry.namespace))}::text[]`,
    `${params.add(column((item) => item.entry.key))}::text[]`,
    `${params.add(column((item) => item.entry.content))}::text[]`,
    `${params.add(column((item) => item.entry.category))}::text[]`,
    `${params.add(column((item) => item.entry.sessionId ?? null))}::text[]`,
    `${params.add(column((item) => item.entry.importance ?? null))}::float8[]`,
    `${params.add(column((item) => item.entry.supersededBy ?? null))}::text[]`,
    `${params.add(column((item) => item.entry.createdAt ?? null))}::timestamptz[]`,
    `${params.add(column((item) => item.entry.updatedAt ?? null))}::timestamptz[]`,
    `${params.add(column((item) => item.hash))}::text[]`,
    `${params.add(column((item) => item.terms.terms))}::text[]`,
    `${params.add(column((item) => item.terms.count))}::int[]`,
  ];
  if (vector) {
    arrays.push(
      `${params.add(
        encodeVectorArray(
          column((item) => item.vector),
          context.vectorOid!,
        ),
      )}::${vector.vectorType}[]`,
    );
  }
  const { memories, vectors } = context.tables;
  const columns =
    "id, namespace, key, content, category, session_id, importance, superseded_by, created_at, updated_at, content_hash, search_terms, term_count";
  const others = `${columns}${vector ? ", embedding" : ""}`
    .split(", ")
    .slice(1)
    .map((name) => `given.${name}`)
    .join(", ");
  const ctes = [
    `given (${columns}${vector ? ", embedding" : ""}) AS (SELECT * FROM unnest(${arrays.join(", ")}))`,
    // Ids are unique per store: an id that belongs to another (namespace, key) is dropped, so
    // the entry is a copy (an export imported into another namespace) with an id of its own.
    `v AS (
      SELECT CASE WHEN taken.id IS NULL THEN given.id END AS id, ${others}
      FROM given LEFT JOIN ${memories} taken
        ON taken.id = given.id AND (taken.namespace <> given.namespace OR taken.key <> given.key)
    )`,
    `up AS (
      INSERT INTO ${memories} AS m
        (id, namespace, key, content, category, session_id, importance, superseded_by, created_at, updated_at, content_hash, search_terms, term_count)
      SELECT coalesce(v.id, e.id, gen_random_uuid()::text), v.namespace, v.key, v.content, v.category, v.session_id,
        v.importance, v.superseded_by, coalesce(v.created_at, e.created_at, v.updated_at, ${now}::timestamptz),
        coalesce(v.updated_at, v.created_at, ${now}::timestamptz), v.content_hash,
        v.search_terms, v.term_count
      FROM v LEFT JOIN ${memories} e ON e.namespace = v.namespace AND e.key = v.key
      ON CONFLICT (namespace, key) DO UPDATE SET
        id = excluded.id, content = excluded.content, category = excluded.category, session_id = excluded.session_id,
        importance = excluded.importance, superseded_by = excluded.superseded_by, created_at = excluded.created_at,
        updated_at = excluded.updated_at, updated_seq = nextval('${context.schema}.memory_write_seq'),
        content_hash = excluded.content_hash, search_terms = excluded.search_terms,
        term_count = excluded.term_count
      RETURNING m.id, m.namespace, m.key, m.content_hash
    )`,
  ];
  if (vector) {
    ctes.push(`vec AS (
      INSERT INTO ${vectors} (memory_id, content_hash, embedding)
      SELECT up.id, up.content_hash, v.embedding FROM up JOIN v ON v.namespace = up.namespace AND v.key = up.key
      WHERE v.embedding IS NOT NULL
      ON CONFLICT (memory_id) DO UPDATE SET embedding = excluded.embedding, content_hash = excluded.content_hash
    )`);
  }
  if (context.staleVectors) {
    // Matched on the stored row's id as it was before this statement: when the import gives an
    // existing key another id, ON UPDATE CASCADE moves its old vector to the new id only at the
    // end of the statement, where it would collide with the vector inserted above (a duplicate
    // memory_vectors_pkey) or, without a new vector, carry a stale one. So the old vector goes
    // when a new one replaces it under another id, or when the content changed without one.
    const replaced = vector
      ? "(v.embedding IS NOT NULL AND e.id <> v.id) OR (v.embedding IS NULL AND x.content_hash <> v.content_hash)"
      : "x.content_hash <> v.content_hash";
    ctes.push(`stale AS (
      DELETE FROM ${vectors} x USING v JOIN ${memories} e ON e.namespace = v.namespace AND e.key = v.key
      WHERE x.memory_id = e.id AND (${replaced})
    )`);
  }
  return {
    text: `WITH ${ctes.join(",\n")} SELECT up.id, up.namespace, up.key FROM up`,
    values: params.values,
  };
}

async function writeBatch(items: Item[], context: ImportContext): Promise<Map<string, string>> {
  const statement = batchStatement(items, context);
  const result = await context.transaction("importEntries", (client) =>
    client.query<{ id: string; namespace: string; key: string }>(statement.text, statement.values),
  );
  return new Map(result.rows.map((row) => [`${row.namespace}\u0000${row.key}`, row.id]));
}

/** Streams entries into the database in batches; bad entries are reported and skipped. */
export async function importEntries(
  entries: Iterable<ImportEntry> | AsyncIterable<ImportEntry>,
  options: ImportOptions,
  context: ImportContext,
): Promise<ImportReport> {
  const report: ImportReport = { imported: 0, rejected: [] };
  let batch: Item[] = [];
  let keys = new Set<string>();
  // Only indexes of empty tables qualify: then nobody relies on them yet.
  const eligible = context.bulk ? await context.bulk.empty() : { search: false, vectors: false };
  let flushes = 0;
  let dropped: BulkIndexes | undefined;
  // Up to WRITERS batches are written at once, on their own connections, while the next one is
  // validated and encoded, so JavaScript and the server (several backends) work at the same time.
  // A key repeated from a batch still being written waits for it, so a later entry still wins.
  const inflight: { done: Promise<void>; keys: Set<string> }[] = [];
  // Failures of the store while writing (as opposed to errors of the caller's iterable).
  const storeFailures = new WeakSet<object>();
  const drain = async () => {
    while (inflight.length > 0) await inflight.shift()!.done;
  };

  const flush = async () => {
    if (batch.length === 0) return;
    const items = batch;
    const itemKeys = keys;
    batch = [];
    keys = new Set();
    if (inflight.length >= WRITERS) await inflight.shift()!.done;
    context.assertOpen();
    // The second batch shows the import is large; a handful of entries keeps the indexes.
    if ((eligible.search || eligible.vectors) && !dropped && ++flushes >= 2) {
      await drain();
      dropped = eligible;
      await context.bulk!.dropIndexes(eligible);
    }
    const done = writeItems(items, context, report, options).catch((error: unknown) => {
      if (typeof error === "object" && error !== null) storeFailures.add(error);
      throw error;
    });
    // Surfaces when awaited; keeps Node from calling it unhandled meanwhile.
    done.catch(() => {});
    inflight.push({ done, keys: itemKeys });
  };

  try {
    let index = 0;
    for await (const raw of entries as AsyncIterable<ImportEntry>) {
      const position = index++;
      if (options.signal?.aborted) {
        report.interrupted = true;
        break;
      }
      let entry: NormalizedImportEntry;
      try {
        entry = normalizeImportEntry(raw);
        if (entry.embedding !== undefined && context.vector)
          validateEmbedding(entry.embedding, context.vector.dimensions);
      } catch (error) {
        report.rejected.push(rejection(position, (raw as { key?: unknown } | null)?.key, error));
        continue;
      }
      const identity = `${entry.namespace}\u0000${entry.key}`;
      // ON CONFLICT cannot touch one row twice in a statement: a repeated key starts a new batch.
      if (keys.has(identity)) {
        await flush();
        await drain();
      } else if (inflight.some((writer) => writer.keys.has(identity))) {
        await drain();
      }
      keys.add(identity);
      batch.push({
        index: position,
        entry,
        hash: contentHash(entry.content),
        terms: entryTerms(entry.key, entry.content, context.language),
        vector: context.vector ? entry.embedding : undefined,
      });
      if (batch.length >= BATCH_SIZE) await flush();
    }
    await flush();
    await drain();
  } catch (error) {
    // The count is final only once every batch in flight has committed or failed.
    await Promise.allSettled(inflight.map((writer) => writer.done));
    const fromStore = typeof error === "object" && error !== null && storeFailures.has(error);
    throw fromStore ? importStoppedError(error, report) : error;
  } finally {
    await Promise.allSettled(inflight.map((writer) => writer.done));
    if (dropped) await context.bulk!.buildIndexes(dropped);
  }
  report.rejected.sort((a, b) => a.index - b.index);
  return report;
}

/** Embeds what is missing, writes one batch, and isolates bad rows when the batch fails. */
async function writeItems(
  items: Item[],
  context: ImportContext,
  report: ImportReport,
  options: ImportOptions,
) {
  if (context.embed) {
    const missing = items.filter((item) => item.vector === undefined);
    if (missing.length > 0) {
      const vectors = await context.embed(missing.map((item) => item.entry.content));
      missing.forEach((item, i) => {
        item.vector = vectors[i];
      });
    }
  }
  let written: { item: Item; id: string }[] = [];
  try {
    const ids = await writeBatch(items, context);
    written = items.map((item) => ({
      item,
      id: ids.get(`${item.entry.namespace}\u0000${item.entry.key}`)!,
    }));
  } catch (error) {
    if (!isEntryError(error)) throw error;
    // One bad row (an id used by another key, ...) fails the whole statement: retry one by
    // one to find it, report it, and keep the rest.
    for (const item of items) {
      try {
        const ids = await writeBatch([item], context);
        written.push({ item, id: ids.values().next().value! });
      } catch (single) {
        if (!isEntryError(single)) throw single;
        report.rejected.push(rejection(item.index, item.entry.key, single));
      }
    }
  }
  report.imported += written.length;
  if (context.onDeferred) {
    for (const { item, id } of written) {
      if (item.vector === undefined)
        context.onDeferred({ id, content: item.entry.content, hash: item.hash });
    }
  }
  options.onProgress?.({ done: report.imported + report.rejected.length });
}
