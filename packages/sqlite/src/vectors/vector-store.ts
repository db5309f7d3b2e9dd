import type { NormalizedFilter } from "@memory/api";
import { filterSql, hasNarrowFilter } from "../filter-sql.js";
import type { StatementCache } from "../statement-cache.js";
import { fromBlob, toBlob } from "./vector-codec.js";
import { VectorIndex } from "./vector-index.js";

/**
 * Candidates taken from the int8 index per wanted result (and at least this many), rescored
 * exactly in memory: int8 ranking errors stay well inside it (recall@10 vs exact search is 1.0
 * in the benchmark at 10k-1M vectors).
 */
export const RESCORE_FACTOR = 3;
export const MIN_RESCORE = 60;

/** A vector-stage hit: the entry's doc id and its exact cosine. */
export interface VectorHit {
  docId: number;
  cosine: number;
}

/** Filtered sets up to this size are searched exactly from SQL instead of through the index. */
const EXACT_SCAN_LIMIT = 2048;

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

  /** Drops the in-memory copy, which reloads on next use: after a rolled-back write. */
  discard(): void {
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
        `SELECT v.doc_id, v.seq, v.embedding, m.namespace, v.content_hash FROM memory_vectors v
         JOIN memories m ON m.doc_id = v.doc_id WHERE v.seq > ? ORDER BY v.seq`,
      )
      .raw()
      .iterate(sinceSeq) as Iterable<[number, number, Buffer, string, string]>;
    for (const [docId, seq, blob, namespace, hash] of rows) {
      index.upsert(docId, namespace, fromBlob(blob), hash);
      if (seq > this.#lastSeq) this.#lastSeq = seq;
    }
  }

  /** The index, loaded on first use and brought up to date with other connections' writes. */
  index(): VectorIndex {
    const dataVersion = this.#statements.dataVersion();
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
    if (result.changes > 0) this.#index?.upsert(docId, namespace, vector, hash);
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

  /**
   * Exact cosines, from the in-memory float32 copy, of the given entries (doc id + content
   * hash); entries without a current vector are left out.
   */
  cosines(
    query: Float32Array,
    entries: readonly { docId: number; hash: string }[],
    refresh = true,
  ): VectorHit[] {
    // Within one recall the vector stage has just refreshed the index: no second SQL read.
    const index = refresh || !this.#index ? this.index() : this.#index;
    const hits: VectorHit[] = [];
    for (const { docId, hash } of entries) {
      const cosine = index.cosine(docId, query, hash);
      if (cosine !== undefined) hits.push({ docId, cosine });
    }
    return hits;
  }

  /**
   * The content hash the in-memory vector of `docId` was computed from, as loaded by the last
   * `nearest()`/`cosines()` (no freshness check of its own: it is called once per hit).
   */
  hashOf(docId: number): string | undefined {
    return this.#index?.hashOf(docId);
  }

  /**
   * Candidates for the vector stage, best first by exact cosine (ties by doc id), with the
   * content hash each vector was computed from. A narrow filter (session, categories, time)
   * is applied here when its entries are few (read from SQL: doc ids and hashes only) and the
   * result is then complete; otherwise the int8 index proposes `count` entries of the namespace
   * and the caller applies the rest of the filter, asking again with a larger count when too
   * few pass (`exhausted` says when asking again cannot find more).
   */
  nearest(
    query: Float32Array,
    count: number,
    filter: NormalizedFilter,
  ): { hits: VectorHit[]; exhausted: boolean; filtered: boolean } {
    const byCosine = (a: VectorHit, b: VectorHit) => b.cosine - a.cosine || a.docId - b.docId;
    if (hasNarrowFilter(filter)) {
      const { where, params } = filterSql(filter);
      const rows = this.#statements
        .get(`SELECT m.doc_id, m.content_hash FROM memories m WHERE ${where} LIMIT ?`)
        .raw()
        .all(...params, EXACT_SCAN_LIMIT + 1) as [number, string][];
      if (rows.length <= EXACT_SCAN_LIMIT) {
        const hits = this.cosines(
          query,
          rows.map(([docId, hash]) => ({ docId, hash })),
        ).sort(byCosine);
        return { hits, exhausted: true, filtered: true };
      }
    }
    const index = this.index();
    const available =
      filter.namespace === undefined ? index.size : index.namespaceSize(filter.namespace);
    const docIds = index.search(query, count, filter.namespace);
    const hits: VectorHit[] = [];
    for (const docId of docIds) {
      const cosine = index.cosine(docId, query, undefined);
      if (cosine !== undefined) hits.push({ docId, cosine });
    }
    return {
      hits: hits.sort(byCosine),
      exhausted: docIds.length < count || count >= available,
      filtered: false,
    };
  }
}
