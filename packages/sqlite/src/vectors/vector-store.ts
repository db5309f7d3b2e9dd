import { cosineSimilarity, type NormalizedFilter } from "@memory/api";
import { filterSql, hasNarrowFilter } from "../filter-sql.js";
import { ENTRY_COLUMNS, type EntryRow } from "../row-mapping.js";
import type { StatementCache } from "../statement-cache.js";
import { fromBlob, toBlob } from "./vector-codec.js";
import { VectorIndex } from "./vector-index.js";

/** A vector-stage hit: the row (with its float32 BLOB) and its exact cosine. */
export interface VectorCandidate {
  row: EntryRow;
  cosine: number;
}

/** Filtered sets up to this size are searched exactly from SQL instead of through the index. */
const EXACT_SCAN_LIMIT = 2048;
/** Approximate candidates rescored exactly per wanted result (int8 ranking errors stay below it). */
const RESCORE_FACTOR = 5;
const MIN_RESCORE = 100;

/**
 * Float32 vectors in `memory_vectors` plus the in-memory int8 index over them. Writes from this
 * connection update the index directly; writes from other connections (processes) are noticed
 * through `PRAGMA data_version` and read incrementally by `seq`; deletions elsewhere are
 * filtered out at rescoring and trigger a reload once they add up.
 */
export class VectorStore {
  readonly #statements: StatementCache;
  #index: VectorIndex | undefined;
  #dims = 0;
  #lastSeq = 0;
  #dataVersion = -1;
  #knownDeletes = 0;

  constructor(statements: StatementCache) {
    this.#statements = statements;
  }

  /** Drops the in-memory copy (after reindex or a fingerprint change). */
  reset(dims: number): void {
    this.#dims = dims;
    this.#index = undefined;
  }

  get loaded(): boolean {
    return this.#index !== undefined;
  }

  #deletes(): number {
    const row = this.#statements.get("SELECT value FROM meta WHERE key = 'vector_deletes'").get() as
      | { value: string }
      | undefined;
    return Number(row?.value ?? 0);
  }

  #load(sinceSeq: number): void {
    const index = this.#index!;
    const rows = this.#statements
      .get(
        `SELECT v.doc_id, v.seq, v.embedding, m.namespace FROM memory_vectors v
         JOIN memories m ON m.doc_id = v.doc_id WHERE v.seq > ? ORDER BY v.seq`,
      )
      .raw()
      .iterate(sinceSeq) as Iterable<[number, number, Buffer, string]>;
    for (const [docId, seq, blob, namespace] of rows) {
      index.upsert(docId, namespace, fromBlob(blob));
      if (seq > this.#lastSeq) this.#lastSeq = seq;
    }
  }

  /** The index, loaded on first use and brought up to date with other connections' writes. */
  index(): VectorIndex {
    const db = this.#statements.db;
    const dataVersion = db.pragma("data_version", { simple: true }) as number;
    if (!this.#index) {
      this.#index = new VectorIndex(this.#dims);
      this.#lastSeq = 0;
      this.#knownDeletes = this.#deletes();
      this.#dataVersion = dataVersion;
      this.#load(0);
      return this.#index;
    }
    if (dataVersion !== this.#dataVersion) {
      this.#dataVersion = dataVersion;
      const deletes = this.#deletes();
      if (deletes - this.#knownDeletes > Math.max(1000, this.#index.size / 10)) {
        this.#index = undefined;
        return this.index();
      }
      this.#load(this.#lastSeq);
    }
    return this.#index;
  }

  /** Writes a vector if the entry still has the content it was computed from (content-hash guard). */
  write(docId: number, namespace: string, hash: string, vector: ArrayLike<number>): boolean {
    const result = this.#statements
      .get(
        `INSERT INTO memory_vectors (doc_id, seq, content_hash, embedding)
         SELECT ?, (SELECT coalesce(max(seq), 0) + 1 FROM memory_vectors), ?, ?
         WHERE EXISTS (SELECT 1 FROM memories WHERE doc_id = ? AND content_hash = ?)
         ON CONFLICT (doc_id) DO UPDATE SET seq = excluded.seq, content_hash = excluded.content_hash, embedding = excluded.embedding`,
      )
      .run(docId, hash, toBlob(vector), docId, hash);
    if (result.changes > 0) this.#index?.upsert(docId, namespace, vector);
    return result.changes > 0;
  }

  /** Forgets doc ids removed by this connection. */
  removed(docIds: Iterable<number>): void {
    if (!this.#index) return;
    for (const docId of docIds) this.#index.remove(docId);
  }

  clear(): void {
    this.#statements.get("DELETE FROM memory_vectors").run();
    this.#index?.clear();
  }

  #rescore(query: Float32Array, rows: EntryRow[]): VectorCandidate[] {
    return rows
      .map((row) => ({ row, cosine: cosineSimilarity(query, fromBlob(row.embedding!)) }))
      .sort((a, b) => b.cosine - a.cosine || (a.row.id < b.row.id ? -1 : 1));
  }

  /**
   * The `pool` best entries by exact cosine among those matching `filter`. Filters are applied
   * before the limit: a small filtered set is scanned exactly; otherwise the index proposes
   * candidates in growing rounds until enough of them pass the filter.
   */
  search(query: Float32Array, pool: number, filter: NormalizedFilter): VectorCandidate[] {
    if (pool <= 0) return [];
    const { where, params } = filterSql(filter);
    const joined = `SELECT ${ENTRY_COLUMNS}, v.embedding FROM memories m
      JOIN memory_vectors v ON v.doc_id = m.doc_id AND v.content_hash = m.content_hash`;
    if (hasNarrowFilter(filter)) {
      const rows = this.#statements
        .get(`${joined} WHERE ${where} LIMIT ?`)
        .all(...params, EXACT_SCAN_LIMIT + 1) as EntryRow[];
      if (rows.length <= EXACT_SCAN_LIMIT) return this.#rescore(query, rows).slice(0, pool);
    }
    const index = this.index();
    const available =
      filter.namespace === undefined ? index.size : index.namespaceSize(filter.namespace);
    // CROSS JOIN pins the plan: probe the candidates by primary key, never scan the namespace index.
    const hydrate = this.#statements.get(
      `SELECT ${ENTRY_COLUMNS}, v.embedding FROM json_each(?) AS candidate
       CROSS JOIN memories m ON m.doc_id = candidate.value
       JOIN memory_vectors v ON v.doc_id = m.doc_id AND v.content_hash = m.content_hash WHERE ${where}`,
    );
    let count = Math.max(pool * RESCORE_FACTOR, MIN_RESCORE);
    for (;;) {
      const docIds = index.search(query, count, filter.namespace);
      const rows = hydrate.all(JSON.stringify(docIds), ...params) as EntryRow[];
      if (rows.length >= pool || docIds.length < count || count >= available) {
        return this.#rescore(query, rows).slice(0, pool);
      }
      count *= 4;
    }
  }
}
