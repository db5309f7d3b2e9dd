import type Database from "better-sqlite3";

/** Log rows kept: older ones are pruned as new ones arrive (a reader further behind starts over). */
export const CHANGE_LOG_KEEP = 1024;

/**
 * Longest search terms the log keeps (characters); a longer entry's are logged as null ("not
 * known": readers count that namespace's statistics again), so 1,024 rewrites of large documents
 * cannot grow the log past about 8 MiB.
 */
export const LOGGED_TERMS_MAX = 8192;

/**
 * Schema v13: which rows each write changed, and what they held before (issue 29;
 * recall/recall-rows.ts).
 *
 * - `memory_changes`: one row per `memories` row a write inserted, updated or deleted: its
 *   `doc_id` and, before the write, its session, namespace and search terms (all null for an
 *   insert: the row did not exist). What it holds after is the row itself. Recall keeps the rows
 *   and session neighbours it read and the terms' document frequencies it counted; with only
 *   `meta.change_seq` to go by, every store emptied them, and an agent stores a turn before
 *   nearly every recall. With the log a recall drops only the rows written since and the
 *   neighbours of their sessions, and moves the frequencies by what those rows held before and
 *   hold now. A bulk import (import/bulk-load-gate.ts) inserts rows past the triggers and logs
 *   one row with a null `doc_id`: readers start over. `seq` never goes back (AUTOINCREMENT);
 *   the newest {@link CHANGE_LOG_KEEP} rows are kept, each with at most {@link LOGGED_TERMS_MAX}
 *   characters of search terms.
 * - The three `memories_change_*` triggers move `change_seq` and log the row in one trigger, so
 *   an insert asks the bulk-load function once.
 */
const LOGGED_TERMS = `CASE WHEN length(old.search_terms) <= ${LOGGED_TERMS_MAX} THEN old.search_terms END`;

/** Moves the write version and logs the row as it was (an update or a delete). */
const BUMP_AND_LOG_OLD = `UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'change_seq';
  INSERT INTO memory_changes (doc_id, old_session_id, old_namespace, old_search_terms)
    VALUES (old.doc_id, old.session_id, old.namespace, ${LOGGED_TERMS});`;

const V13_SCHEMA = `
CREATE TABLE IF NOT EXISTS memory_changes (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  doc_id INTEGER,
  old_session_id TEXT,
  old_namespace TEXT,
  old_search_terms TEXT
);

DROP TRIGGER IF EXISTS memory_changes_prune;
CREATE TRIGGER memory_changes_prune AFTER INSERT ON memory_changes BEGIN
  DELETE FROM memory_changes WHERE seq <= new.seq - ${CHANGE_LOG_KEEP};
END;

DROP TRIGGER IF EXISTS memories_change_insert;
CREATE TRIGGER memories_change_insert AFTER INSERT ON memories
WHEN memory_bulk_loading(new.doc_id) = 0 BEGIN
  UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'change_seq';
  INSERT INTO memory_changes (doc_id) VALUES (new.doc_id);
END;

DROP TRIGGER IF EXISTS memories_change_update;
CREATE TRIGGER memories_change_update AFTER UPDATE ON memories BEGIN
  ${BUMP_AND_LOG_OLD}
  INSERT INTO memory_changes (doc_id) SELECT new.doc_id WHERE new.doc_id IS NOT old.doc_id;
END;

DROP TRIGGER IF EXISTS memories_change_delete;
CREATE TRIGGER memories_change_delete AFTER DELETE ON memories BEGIN
  ${BUMP_AND_LOG_OLD}
END;
`;

/** Moves a v12 store to v13 inside the caller's transaction: the change log and its triggers. */
export function upgradeToV13(db: Database.Database): void {
  db.exec(V13_SCHEMA);
}
