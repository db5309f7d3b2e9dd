import type {
  IndexedEntry,
  KeywordStageRequest,
  KeywordStageResult,
  MemoryEntry,
  NormalizedFilter,
  RecallStages,
  VectorAvailability,
  VectorStageHit,
  VectorStageRequest,
} from "@memory/api";
import { escapeLike, KeywordStatisticsCache } from "@memory/core";
import { attachEmbeddings } from "../entry-queries.js";
import { filterSql } from "../filter-sql.js";
import type { Opened } from "../opened-store.js";
import { ENTRY_COLUMNS, type EntryRow, toEntry } from "../row-mapping.js";
import { MIN_RESCORE, RESCORE_FACTOR } from "../vectors/vector-store.js";
import { keywordStage } from "./keyword-stage.js";
import { SEARCH_COLUMNS, type SearchRow, toIndexedEntry } from "./search-row.js";

/** Entries whose doc ids the engine may ask cosines for; forgotten beyond this many. */
const KNOWN_ENTRIES_MAX = 10_000;

/**
 * The SQLite stages of the shared recall engine: FTS5 for keyword candidates, `namespace_stats`
 * and the FTS5 vocabulary for namespace-local BM25 statistics, the in-memory vector index for
 * vector candidates and exact cosines (no BLOB is read on the query path).
 */
export class SqliteRecallStages implements RecallStages {
  readonly #opened: () => Opened;
  // Entry id -> doc id and content hash, for cosines() of keyword candidates.
  readonly #known = new Map<string, { docId: number; hash: string }>();
  readonly #statistics = new KeywordStatisticsCache();
  // The connection the cached statistics were counted on: a reopened file starts its counters over.
  #statisticsOf: Opened["statements"] | undefined;

  constructor(opened: () => Opened) {
    this.#opened = opened;
  }

  #remember(rows: readonly EntryRow[]): void {
    if (this.#known.size > KNOWN_ENTRIES_MAX) this.#known.clear();
    for (const row of rows) this.#known.set(row.id, { docId: row.doc_id, hash: row.content_hash });
  }

  async recent(filter: NormalizedFilter, limit: number): Promise<MemoryEntry[]> {
    const { where, params } = filterSql(filter);
    const rows = this.#opened()
      .statements.get(
        `SELECT ${ENTRY_COLUMNS} FROM memories m WHERE ${where} ORDER BY m.updated_at DESC, m.doc_id DESC LIMIT ?`,
      )
      .all(...params, limit) as EntryRow[];
    return rows.map(toEntry);
  }

  async keyword(request: KeywordStageRequest): Promise<KeywordStageResult> {
    const { statements } = this.#opened();
    if (statements !== this.#statisticsOf) {
      this.#statistics.clear();
      this.#statisticsOf = statements;
    }
    const { rows, statistics } = await keywordStage(statements, this.#statistics, request);
    this.#remember(rows);
    return { hits: rows.map(toIndexedEntry), statistics };
  }

  /** Only the store's own problem: the provider and fingerprint rules are the facade's. */
  vectorAvailability(): VectorAvailability {
    const { problem } = this.#opened().space;
    return problem === undefined ? { usable: true } : { usable: false, reason: problem };
  }

  embedQuery(query: string, signal?: AbortSignal): Promise<Float32Array> {
    return this.#opened().queries.embed(query, signal);
  }

  /**
   * Nearest entries by exact cosine from the in-memory index, then their rows for the best
   * `pool` that pass the filter and whose vector is current (one query in the common case;
   * more candidates are asked for only when superseded or filtered entries crowd them out).
   */
  async vector(request: VectorStageRequest): Promise<VectorStageHit[]> {
    const { vectors, statements } = this.#opened();
    const { pool, filter } = request;
    if (pool <= 0) return [];
    const { where, params } = filterSql(filter);
    const hydrate = statements.get(
      `SELECT ${SEARCH_COLUMNS} FROM json_each(?) AS candidate
       CROSS JOIN memories m ON m.doc_id = candidate.value WHERE ${where}`,
    );
    let count = Math.max(pool * RESCORE_FACTOR, MIN_RESCORE);
    for (;;) {
      const { hits, exhausted, filtered } = vectors.nearest(request.vector, count, filter);
      const found: VectorStageHit[] = [];
      const rows: SearchRow[] = [];
      for (let start = 0; start < hits.length && found.length < pool; start += pool) {
        const batch = hits.slice(start, start + pool);
        const byDoc = new Map(
          (
            hydrate.all(JSON.stringify(batch.map((hit) => hit.docId)), ...params) as SearchRow[]
          ).map((row) => [row.doc_id, row]),
        );
        for (const hit of batch) {
          const row = byDoc.get(hit.docId);
          if (!row || (!filtered && vectors.hashOf(hit.docId) !== row.content_hash)) continue;
          rows.push(row);
          found.push({ ...toIndexedEntry(row), cosine: hit.cosine });
          if (found.length >= pool) break;
        }
      }
      if (found.length >= pool || exhausted) {
        this.#remember(rows);
        return found;
      }
      count *= 4;
    }
  }

  async cosines(ids: readonly string[], vector: Float32Array): Promise<Map<string, number>> {
    const entries = ids.flatMap((id) => {
      const known = this.#known.get(id);
      return known ? [{ id, ...known }] : [];
    });
    const byDoc = new Map(entries.map((entry) => [entry.docId, entry.id]));
    const result = new Map<string, number>();
    for (const hit of this.#opened().vectors.cosines(vector, entries, false))
      result.set(byDoc.get(hit.docId)!, hit.cosine);
    return result;
  }

  /**
   * The entries just before and after each given one in its session, by creation time then
   * doc id (write order): two indexed lookups per entry (`memories_session_order`), all in one
   * statement (twenty statements cost a quarter of a small store's recall).
   */
  async neighbors(
    ids: readonly string[],
    filter: NormalizedFilter & { namespace: string },
  ): Promise<Map<string, IndexedEntry[]>> {
    const result = new Map<string, IndexedEntry[]>();
    if (ids.length === 0) return result;
    const { where, params } = filterSql(filter);
    const nearest = (before: boolean) =>
      `SELECT m.doc_id FROM memories a CROSS JOIN memories m
       WHERE a.id = anchors.id AND a.session_id IS NOT NULL
         AND m.namespace = a.namespace AND m.session_id = a.session_id
         AND ${
           before
             ? "(m.created_at < a.created_at OR (m.created_at = a.created_at AND m.doc_id < a.doc_id))"
             : "(m.created_at > a.created_at OR (m.created_at = a.created_at AND m.doc_id > a.doc_id))"
         }
         AND ${where}
       ORDER BY m.created_at ${before ? "DESC" : "ASC"}, m.doc_id ${before ? "DESC" : "ASC"} LIMIT 1`;
    const rows = this.#opened()
      .statements.get(
        `WITH anchors(position, id) AS (SELECT key, value FROM json_each(?)),
         near(position, side, doc) AS (
           SELECT position, 0, (${nearest(true)}) FROM anchors
           UNION ALL SELECT position, 1, (${nearest(false)}) FROM anchors)
         SELECT near.position AS position, ${SEARCH_COLUMNS}
         FROM near CROSS JOIN memories m ON m.doc_id = near.doc
         ORDER BY near.position, near.side`,
      )
      .all(JSON.stringify(ids), ...params, ...params) as (SearchRow & { position: number })[];
    for (const row of rows) {
      const id = ids[row.position]!;
      const found = result.get(id);
      if (found) found.push(toIndexedEntry(row));
      else result.set(id, [toIndexedEntry(row)]);
    }
    this.#remember(rows);
    return result;
  }

  async like(
    keywords: readonly string[],
    filter: NormalizedFilter,
    pool: number,
  ): Promise<MemoryEntry[]> {
    if (keywords.length === 0 || pool <= 0) return [];
    const test = "(m.content LIKE ? ESCAPE '\\' OR m.key LIKE ? ESCAPE '\\')";
    const tests = keywords.map(() => test);
    const patterns = keywords.flatMap((word) => {
      const pattern = `%${escapeLike(word)}%`;
      return [pattern, pattern];
    });
    const { where, params } = filterSql(filter);
    const rows = this.#opened()
      .statements.get(
        `SELECT ${ENTRY_COLUMNS}, (${tests.join(" + ")}) AS matched FROM memories m
         WHERE ${where} AND (${tests.join(" OR ")}) ORDER BY matched DESC, m.updated_at DESC LIMIT ?`,
      )
      .all(...patterns, ...params, ...patterns, pool) as EntryRow[];
    return rows.map(toEntry);
  }

  async attachEmbeddings(results: MemoryEntry[]): Promise<MemoryEntry[]> {
    attachEmbeddings(this.#opened(), results);
    return results;
  }

  /** Another connection's commit moves `data_version`; this connection's writes invalidate directly. */
  changeToken(): unknown {
    return this.#opened().statements.dataVersion();
  }
}
