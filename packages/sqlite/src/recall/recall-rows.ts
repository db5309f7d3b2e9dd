import type { NormalizedFilter } from "@memory/api";
import type { StatementCache } from "../statement-cache.js";
import type { SearchRow } from "./search-row.js";

/** Rows (and neighbour links) kept at most, over all filters; past this many the cache starts over. */
const ROWS_MAX = 10_000;

/**
 * Filters kept at once. A store's conflict check recalls with its own filter (the stored
 * entry's category) between an agent's recalls: with one filter kept, each store emptied the
 * agent's rows even where the change log kept them.
 */
const FILTERS_MAX = 4;

/**
 * Logged changes applied at most when the write version moves; past this many, reading the rows
 * again costs less than following the log, and the cache starts over.
 */
const CATCH_UP_MAX = 256;

/** The doc ids just before and after an anchor in its session that pass the filter. */
export type NeighborDocs = readonly [before: number | null, after: number | null];

/** An anchor's neighbours as kept, with what a write must touch to move them. */
export interface AnchorNeighbors {
  readonly docs: NeighborDocs;
  /** The anchor's own row: a change to it (its session, its filter columns) moves its links. */
  readonly docId: number;
  /** A change to any row of this session may move the links (null: no session, no links). */
  readonly session: string | null;
}

/** What one row held, as far as keyword statistics go. */
export interface RowTerms {
  readonly namespace: string;
  /** Its search terms; null when too long for the log to keep (schema-v13.ts). */
  readonly terms: string | null;
}

/** A row as it is now: its terms, and whether it is superseded (`superseded_by` set). */
export interface RowNow extends RowTerms {
  readonly terms: string;
  readonly superseded: boolean;
}

/** A row written since the cache's last position: what it held before and holds after (no row: undefined). */
export interface RowChange {
  readonly docId: number;
  readonly before: RowTerms | undefined;
  readonly after: RowNow | undefined;
}

/** What else follows the log with the kept rows (the keyword statistics, the keyword index). */
export interface ChangeListener {
  /** The rows written between write versions `from` and `to`, read in `statements`' snapshot. */
  followed(
    statements: StatementCache,
    from: string,
    to: string,
    changes: readonly RowChange[],
  ): void;
  /** Nothing kept can be trusted any more (or this read may roll back). */
  startedOver(): void;
}

/**
 * What recall read from `memories` under one filter: each asked doc id's row (null when the
 * filter left it out) and each anchor's session neighbours. A recall of a conversation reads the
 * same few hundred rows query after query (its candidates, then their neighbours); reading a row
 * costs more than finding it (about 4 microseconds for its 17 columns, most of the keyword stage
 * after FTS5 itself).
 *
 * Kept across writes. `meta.change_seq` (`StatementCache.writeVersion`) moves on every write to
 * entries, pins, snoozes, vectors and relations, by this connection or another, and not on the
 * usage events each recall writes; when it has moved, the cache reads the change log
 * (`memory_changes`, schema v13) from where it last stood and drops the rows written since and
 * the links of anchors in their sessions (or of the changed anchors themselves). An agent stores
 * a turn before nearly every recall: that recall reads one row again, not every row. When the log
 * no longer reaches back that far, or holds more than {@link CATCH_UP_MAX} changes since, the
 * cache starts over. Vectors and relations are not kept here, so their writes drop nothing. A
 * {@link ChangeListener} is told the same changes (the keyword statistics and index move with them).
 *
 * Also keyed by the connection (a reopened file) and by the filter's conditions (a row that
 * passed one filter may fail another): the rows of the last {@link FILTERS_MAX} filters are kept,
 * each apart.
 *
 * Rows are kept as the arrays better-sqlite3 returns (strings and numbers only): each recall
 * builds its own entries from them, so nothing a caller does to a result reaches the cache.
 */
export class RecallRows {
  #at: { statements: StatementCache; version: string; logged: number } | undefined;
  /** By filter (JSON), least recently used first. */
  readonly #filters = new Map<string, FilterRows>();
  /** The filter `at` last positioned the cache at: what `read` and `neighbors` answer from. */
  #current = new FilterRows();
  readonly #listeners: readonly ChangeListener[];

  constructor(...listeners: ChangeListener[]) {
    this.#listeners = listeners;
  }

  /** False while reading inside a caller's transaction: nothing read now may be kept. */
  get keeping(): boolean {
    return this.#at !== undefined;
  }

  /**
   * Positions the cache at a read of `statements` at `version` under the (effective) `filter`.
   * Must run in the read transaction the version was read in (`StatementCache.snapshot`), so that
   * the log it follows is the one of that version.
   */
  at(statements: StatementCache, version: string, normalized: NormalizedFilter): this {
    if (statements.inCallersTransaction) {
      // Rows of a transaction that may yet roll back (and reuse its log's numbers) are not kept.
      this.#startOver(undefined);
      this.#current = new FilterRows();
      return this;
    }
    const at = this.#at;
    if (at?.statements !== statements) this.#startOver(statements, version);
    else if (at.version !== version) {
      const changes = this.#catchUp(statements, at);
      if (changes === undefined) this.#startOver(statements, version);
      else {
        for (const listener of this.#listeners)
          listener.followed(statements, at.version, version, changes);
        at.version = version;
      }
    }
    const filter = JSON.stringify(normalized);
    let rows = this.#filters.get(filter);
    if (rows) this.#filters.delete(filter);
    else {
      rows = new FilterRows();
      if (this.#filters.size >= FILTERS_MAX)
        this.#filters.delete(this.#filters.keys().next().value!);
    }
    this.#filters.set(filter, rows);
    this.#current = rows;
    return this;
  }

  /** Empties the cache; positions it at the log's newest change when given a connection. */
  #startOver(statements: StatementCache | undefined, version = ""): void {
    this.#filters.clear();
    for (const listener of this.#listeners) listener.startedOver();
    if (statements === undefined) {
      this.#at = undefined;
      return;
    }
    const logged = statements
      .get("SELECT coalesce(max(seq), 0) FROM memory_changes")
      .pluck()
      .get() as number;
    this.#at = { statements, version, logged };
  }

  /**
   * Drops what the changes logged since `at.logged` may have made stale and returns them, one
   * per row; undefined when the log cannot say (pruned past that point, too many changes to be
   * worth following, or a bulk import).
   */
  #catchUp(statements: StatementCache, at: { logged: number }): RowChange[] | undefined {
    const logged = statements
      .get(
        `SELECT c.seq, c.doc_id, c.old_session_id, c.old_namespace, c.old_search_terms,
           m.session_id, m.namespace, m.search_terms, m.superseded_by IS NOT NULL
         FROM memory_changes c LEFT JOIN memories m ON m.doc_id = c.doc_id
         WHERE c.seq > ? ORDER BY c.seq LIMIT ?`,
      )
      .raw(true)
      .all(at.logged, CATCH_UP_MAX + 1) as LoggedRow[];
    if (logged.length === 0) return [];
    // `seq` has no gaps (AUTOINCREMENT, rolled back with its transaction): a gap is pruning.
    if (logged.length > CATCH_UP_MAX || logged[0]![0] !== at.logged + 1) return undefined;
    const byDoc = new Map<number, RowChange>();
    const sessions = new Set<string>();
    for (const [
      ,
      docId,
      oldSession,
      oldNamespace,
      oldTerms,
      session,
      namespace,
      terms,
      superseded,
    ] of logged) {
      if (docId === null) return undefined;
      if (oldSession !== null) sessions.add(oldSession);
      if (session !== null) sessions.add(session);
      // The first change of a row says what it held at the last position.
      if (!byDoc.has(docId))
        byDoc.set(docId, {
          docId,
          before: oldNamespace === null ? undefined : { namespace: oldNamespace, terms: oldTerms },
          after:
            namespace === null
              ? undefined
              : { namespace, terms: terms!, superseded: superseded === 1 },
        });
    }
    const docs = new Set(byDoc.keys());
    for (const rows of this.#filters.values()) rows.drop(docs, sessions);
    at.logged = logged[logged.length - 1]![0];
    return [...byDoc.values()];
  }

  /**
   * The rows of `docIds` that pass the filter, in the given order: kept ones from the cache, the
   * others from `load` (which returns the passing rows among the doc ids it is given, in any order).
   */
  read(docIds: readonly number[], load: (missing: number[]) => SearchRow[]): SearchRow[] {
    const kept = this.#current.rows;
    const wanted = new Set<number>();
    for (const docId of docIds) if (!kept.has(docId)) wanted.add(docId);
    if (wanted.size > 0) {
      let missing = [...wanted];
      if (this.#full(missing.length)) missing = [...new Set(docIds)];
      for (const docId of missing) kept.set(docId, null);
      for (const row of load(missing)) kept.set(row[0], row);
    }
    const rows: SearchRow[] = [];
    for (const docId of docIds) {
      const row = kept.get(docId);
      if (row) rows.push(row);
    }
    return rows;
  }

  /** The kept neighbours of an anchor (by its entry id), if they were looked up. */
  neighbors(anchor: string): NeighborDocs | undefined {
    return this.#current.neighborsOf(anchor);
  }

  /** Keeps anchors' neighbours (an anchor without a session: both null). */
  keepNeighbors(found: ReadonlyMap<string, AnchorNeighbors>): void {
    this.#full(found.size);
    for (const [anchor, kept] of found) this.#current.keepNeighbors(anchor, kept);
  }

  /** True (and every filter's rows emptied) when `adding` more would pass {@link ROWS_MAX}. */
  #full(adding: number): boolean {
    let size = adding;
    for (const rows of this.#filters.values()) size += rows.size;
    if (size <= ROWS_MAX) return false;
    for (const rows of this.#filters.values()) rows.clear();
    this.#current.clear();
    return true;
  }
}

type LoggedRow = [
  seq: number,
  docId: number | null,
  oldSession: string | null,
  oldNamespace: string | null,
  oldTerms: string | null,
  session: string | null,
  namespace: string | null,
  terms: string | null,
  superseded: number | null,
];

/**
 * What one filter's recalls read: rows by doc id (null: left out), neighbours by anchor id. The
 * links are also found by the anchor's doc id and session, so a write drops what it touched
 * without a pass over every link (a conversation's recalls keep a thousand and more).
 */
class FilterRows {
  readonly rows = new Map<number, SearchRow | null>();
  readonly #neighbors = new Map<string, AnchorNeighbors>();
  /** Anchor ids by their own doc id, and by their session. */
  readonly #byDoc = new Map<number, Set<string>>();
  readonly #bySession = new Map<string, Set<string>>();

  get size(): number {
    return this.rows.size + this.#neighbors.size;
  }

  neighborsOf(anchor: string): NeighborDocs | undefined {
    return this.#neighbors.get(anchor)?.docs;
  }

  keepNeighbors(anchor: string, kept: AnchorNeighbors): void {
    this.#forget(anchor);
    this.#neighbors.set(anchor, kept);
    addTo(this.#byDoc, kept.docId, anchor);
    if (kept.session !== null) addTo(this.#bySession, kept.session, anchor);
  }

  /** Forgets the changed rows, and the links of anchors that changed or whose session did. */
  drop(docs: ReadonlySet<number>, sessions: ReadonlySet<string>): void {
    for (const docId of docs) {
      this.rows.delete(docId);
      for (const anchor of this.#byDoc.get(docId) ?? []) this.#forget(anchor);
    }
    for (const session of sessions)
      for (const anchor of this.#bySession.get(session) ?? []) this.#forget(anchor);
  }

  #forget(anchor: string): void {
    const kept = this.#neighbors.get(anchor);
    if (!kept) return;
    this.#neighbors.delete(anchor);
    removeFrom(this.#byDoc, kept.docId, anchor);
    if (kept.session !== null) removeFrom(this.#bySession, kept.session, anchor);
  }

  clear(): void {
    this.rows.clear();
    this.#neighbors.clear();
    this.#byDoc.clear();
    this.#bySession.clear();
  }
}

function addTo<K>(sets: Map<K, Set<string>>, key: K, value: string): void {
  const set = sets.get(key);
  if (set) set.add(value);
  else sets.set(key, new Set([value]));
}

function removeFrom<K>(sets: Map<K, Set<string>>, key: K, value: string): void {
  const set = sets.get(key);
  if (!set) return;
  set.delete(value);
  if (set.size === 0) sets.delete(key);
}
