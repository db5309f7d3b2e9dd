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
import { escapeLike } from "@memory/core";
import { attachEmbeddings } from "../entry-queries.js";
import { filterSql } from "../filter-sql.js";
import type { Opened } from "../opened-store.js";
import { ENTRY_COLUMNS, type EntryRow, toEntry } from "../row-mapping.js";
import { MIN_RESCORE, RESCORE_FACTOR } from "../vectors/vector-store.js";
import { EffectiveFilters } from "./effective-filter.js";
import { FollowedStatistics } from "./followed-statistics.js";
import { KeywordIndex } from "./keyword-index.js";
import { keywordStage } from "./keyword-stage.js";
import { RecallRows } from "./recall-rows.js";
import { SEARCH_COLUMNS, type SearchHit, searchRows, toSearchHit } from "./search-row.js";
import { sessionNeighbors } from "./session-neighbors.js";

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
  readonly #filters = new EffectiveFilters();
  // Keyword statistics, moved along the change log with the rows (followed-statistics.ts).
  readonly #statistics = new FollowedStatistics();
  // A small file's full-text index, kept in memory (keyword-index.ts).
  readonly #index = new KeywordIndex();
  // Rows and session neighbours read, kept across writes that did not touch them (recall-rows.ts);
  // a reopened file starts both over.
  readonly #rows = new RecallRows(this.#statistics, this.#index);
  // The change token and the connection and `data_version` it was read at (`changeToken`).
  #token: { statements: Opened["statements"]; dataVersion: number; value: string } | undefined;

  constructor(opened: () => Opened) {
    this.#opened = opened;
  }

  #remember(hits: readonly SearchHit[]): void {
    if (this.#known.size > KNOWN_ENTRIES_MAX) this.#known.clear();
    for (const { docId, contentHash: hash, indexed } of hits) {
      const known = this.#known.get(indexed.entry.id);
      // Most candidates come back recall after recall: no new object for an unchanged one.
      if (!known || known.docId !== docId || known.hash !== hash)
        this.#known.set(indexed.entry.id, { docId, hash });
    }
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
    const { hits, statistics } = statements.snapshot(() => {
      const version = statements.writeVersion();
      const filter = this.#filters.of(statements, request.filter, version);
      return keywordStage(
        statements,
        this.#statistics.cache,
        { ...request, filter },
        this.#rows,
        version,
        this.#index,
      );
    });
    this.#remember(hits);
    return { hits: hits.map((hit) => hit.indexed), statistics };
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
    const { pool } = request;
    if (pool <= 0) return [];
    return statements.snapshot(() => {
      const version = statements.writeVersion();
      const filter = this.#filters.of(statements, request.filter, version);
      const { where, params } = filterSql(filter);
      const hydrate = statements.get(
        `SELECT ${SEARCH_COLUMNS} FROM json_each(?) AS candidate
         CROSS JOIN memories m ON m.doc_id = candidate.value WHERE ${where}`,
      );
      const kept = this.#rows.at(statements, version, filter);
      let count = Math.max(pool * RESCORE_FACTOR, MIN_RESCORE);
      for (;;) {
        const { hits, exhausted, filtered } = vectors.nearest(request.vector, count, filter);
        const found: VectorStageHit[] = [];
        const rows: SearchHit[] = [];
        for (let start = 0; start < hits.length && found.length < pool; start += pool) {
          const batch = hits.slice(start, start + pool);
          const read = kept.read(
            batch.map((hit) => hit.docId),
            (missing) => searchRows(hydrate, JSON.stringify(missing), ...params),
          );
          const byDoc = new Map(read.map((row) => [row[0], toSearchHit(row)]));
          for (const hit of batch) {
            const row = byDoc.get(hit.docId);
            if (!row || (!filtered && vectors.hashOf(hit.docId) !== row.contentHash)) continue;
            rows.push(row);
            found.push({ ...row.indexed, cosine: hit.cosine });
            if (found.length >= pool) break;
          }
        }
        if (found.length >= pool || exhausted) {
          this.#remember(rows);
          return found;
        }
        count *= 4;
      }
    });
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

  async neighbors(
    ids: readonly string[],
    filter: NormalizedFilter & { namespace: string },
  ): Promise<Map<string, IndexedEntry[]>> {
    const { statements } = this.#opened();
    const { neighbors, hits } = statements.snapshot(() => {
      const version = statements.writeVersion();
      const effective = this.#filters.of(statements, filter, version);
      return sessionNeighbors(
        statements,
        ids,
        effective,
        this.#rows.at(statements, version, effective),
      );
    });
    this.#remember(hits);
    return neighbors;
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

  /**
   * `meta.change_seq` as read after another connection's last commit (`data_version` moved).
   * This connection's own writes leave the token as it is: the facade invalidates the namespace
   * it wrote (`written`), as it always did. Another connection's commit that wrote only usage
   * events and statistics (every recall writes some) leaves `change_seq` and so the token alone:
   * the cache stays; one that changed entries, marks, vectors or relations moves it.
   */
  changeToken(): unknown {
    const { statements } = this.#opened();
    const dataVersion = statements.dataVersion();
    const seen = this.#token;
    if (seen?.statements === statements && seen.dataVersion === dataVersion) return seen.value;
    const value = statements.writeVersion();
    this.#token = { statements, dataVersion, value };
    return value;
  }
}
