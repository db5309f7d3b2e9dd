import type { NormalizedFilter } from "@memory/api";
import type { StatementCache } from "../statement-cache.js";
import type { SearchRow } from "./search-row.js";

/** Rows (and neighbour links) kept at most; past this many the cache starts over. */
const ROWS_MAX = 10_000;

/** The doc ids just before and after an anchor in its session that pass the filter. */
export type NeighborDocs = readonly [before: number | null, after: number | null];

/**
 * What recall read from `memories` at one write version under one filter: each asked doc id's
 * row (null when the filter left it out) and each anchor's session neighbours. A recall of a
 * conversation reads the same few hundred rows query after query (its candidates, then their
 * neighbours); reading a row costs more than finding it (about 4 microseconds for its 17
 * columns, most of the keyword stage after FTS5 itself), and while nothing was written the
 * row cannot have changed.
 *
 * Kept while `meta.change_seq` (`StatementCache.writeVersion`) stays the same: it moves on every
 * write to entries, pins, snoozes, vectors and relations, by this connection or another (a
 * worker's store empties every other worker's cache at its next recall), and not on the usage
 * events each recall writes. Also keyed by the connection (a reopened file) and by the filter's
 * conditions: a row that passed one filter may fail another. One filter at a time,
 * like `EffectiveFilters`: recalls of one namespace with the default filter are the common case.
 *
 * Rows are kept as the arrays better-sqlite3 returns (strings and numbers only): each recall
 * builds its own entries from them, so nothing a caller does to a result reaches the cache.
 */
export class RecallRows {
  #at: { statements: StatementCache; version: string; filter: string } | undefined;
  readonly #rows = new Map<number, SearchRow | null>();
  readonly #neighbors = new Map<string, NeighborDocs>();

  /** Positions the cache at a read of `statements` at `version` under the (effective) `filter`. */
  at(statements: StatementCache, version: string, normalized: NormalizedFilter): this {
    const filter = JSON.stringify(normalized);
    const at = this.#at;
    if (at?.statements !== statements || at.version !== version || at.filter !== filter) {
      this.#rows.clear();
      this.#neighbors.clear();
      this.#at = { statements, version, filter };
    }
    return this;
  }

  /**
   * The rows of `docIds` that pass the filter, in the given order: kept ones from the cache, the
   * others from `load` (which returns the passing rows among the doc ids it is given, in any order).
   */
  read(docIds: readonly number[], load: (missing: number[]) => SearchRow[]): SearchRow[] {
    const wanted = new Set<number>();
    for (const docId of docIds) if (!this.#rows.has(docId)) wanted.add(docId);
    if (wanted.size > 0) {
      let missing = [...wanted];
      if (this.#full(missing.length)) missing = [...new Set(docIds)];
      for (const docId of missing) this.#rows.set(docId, null);
      for (const row of load(missing)) this.#rows.set(row[0], row);
    }
    const rows: SearchRow[] = [];
    for (const docId of docIds) {
      const row = this.#rows.get(docId);
      if (row) rows.push(row);
    }
    return rows;
  }

  /** The kept neighbours of an anchor (by its entry id), if they were looked up. */
  neighbors(anchor: string): NeighborDocs | undefined {
    return this.#neighbors.get(anchor);
  }

  /** Keeps anchors' neighbours (an anchor without a session: both null). */
  keepNeighbors(found: ReadonlyMap<string, NeighborDocs>): void {
    this.#full(found.size);
    for (const [anchor, docs] of found) this.#neighbors.set(anchor, docs);
  }

  /** True (and the cache emptied) when `adding` more would pass {@link ROWS_MAX}. */
  #full(adding: number): boolean {
    if (this.#rows.size + this.#neighbors.size + adding <= ROWS_MAX) return false;
    this.#rows.clear();
    this.#neighbors.clear();
    return true;
  }
}
