import type { DriverVectors, EmbeddingProvider, PendingEntry } from "@memory/api";
import type { Database } from "./database.js";
import type { Tables } from "./filter-sql.js";
import { encodeVector, Params } from "./sql.js";
import type { VectorState } from "./vector-store.js";

/**
 * The schema is the queue of deferred embeddings: an entry whose content hash has no vector is
 * pending, scanned by id. Several processes may drain one schema at once: there is no claim or
 * lock, so two of them can embed the same row. That is harmless by design: a vector is written
 * with `ON CONFLICT (memory_id) DO UPDATE`, joined on the row's current content hash, so a second
 * write replaces the vector of that content with an equal one and a stale vector is never written.
 */
export interface VectorAccess {
  db: Database;
  tables: Tables;
  /** The vector state of the open schema. */
  state(): VectorState;
  /** Drops the vectors and starts a new space for the provider (`reindex`). */
  reset(embedder: EmbeddingProvider): Promise<void>;
  /** The provider the schema was opened with. */
  embedder(): EmbeddingProvider | undefined;
}

const PENDING = (tables: Tables) =>
  `NOT EXISTS (SELECT 1 FROM ${tables.vectors} v WHERE v.memory_id = m.id AND v.content_hash = m.content_hash)`;

/** Entries without an embedding of their current content (all of them when the space is stale). */
async function countPending(access: VectorAccess): Promise<number> {
  const { db, tables } = access;
  const text =
    access.state().status === "ok"
      ? `SELECT count(*) AS n FROM ${tables.memories} m WHERE ${PENDING(tables)}`
      : `SELECT count(*) AS n FROM ${tables.memories}`;
  return Number((await db.query<{ n: string }>("counting pending embeddings", text)).rows[0]!.n);
}

export function postgresVectors(access: VectorAccess): DriverVectors {
  const { db, tables } = access;
  return {
    async pending(after, limit) {
      // Outside the provider's vector space nothing can be written: nothing is pending.
      if (access.state().status !== "ok") return { entries: [], next: after };
      const result = await db.query<{
        id: string;
        namespace: string;
        content: string;
        content_hash: string;
      }>(
        "deferred embeddings",
        `SELECT m.id, m.namespace, m.content, m.content_hash FROM ${tables.memories} m
         WHERE m.id > $1 AND ${PENDING(tables)} ORDER BY m.id LIMIT $2`,
        [typeof after === "string" ? after : "", limit],
      );
      const entries: PendingEntry[] = result.rows.map((row) => ({
        id: row.id,
        namespace: row.namespace,
        content: row.content,
        contentHash: row.content_hash,
      }));
      return { entries, next: entries.at(-1)?.id ?? after };
    },
    countPending: () => countPending(access),
    /**
     * Only where the content hash still matches: an embedding computed for text that a later
     * store replaced is dropped. A reindex in between replaced the state: this writes into the
     * current vector table.
     */
    async save(vectors) {
      const state = access.state();
      if (state.status !== "ok" || vectors.length === 0) return 0;
      const params = new Params();
      const rows = vectors.map(
        ({ entry, vector }) =>
          `(${params.add(entry.id)}, ${params.add(entry.contentHash)}, ${params.add(encodeVector(vector))}::${state.vectorType})`,
      );
      const result = await db.query(
        "writing embeddings",
        `INSERT INTO ${tables.vectors} (memory_id, content_hash, embedding)
         SELECT m.id, m.content_hash, x.embedding FROM (VALUES ${rows.join(", ")}) AS x(id, hash, embedding)
         JOIN ${tables.memories} m ON m.id = x.id AND m.content_hash = x.hash
         ON CONFLICT (memory_id) DO UPDATE SET embedding = excluded.embedding, content_hash = excluded.content_hash`,
        params.values,
      );
      return result.rowCount ?? 0;
    },
    // Read at open (under the schema's advisory lock) and kept: no round trip per recall.
    fingerprint: async () => access.state().storedFingerprint,
    async reset() {
      const embedder = access.embedder();
      if (embedder) await access.reset(embedder);
    },
  };
}
