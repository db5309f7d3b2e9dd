import type Database from "better-sqlite3";

/** Log rows kept: older ones are pruned as new ones arrive (a reader further behind starts over). */
export const CHANGE_LOG_KEEP = 1024;

/**
 * Schema v13: which rows each write changed (issue 29; recall/recall-rows.ts).
 *
 * - `memory_changes`: one row per `memories` row a write inserted, updated or deleted: its
 *   `doc_id` and `session_id` (an update that moves a row to another session logs both). Recall
 *   keeps the rows and session neighbours it read; with only `meta.change_seq` to go by, every
 *   store emptied them, and an agent stores a turn before nearly every recall. With the log a
 *   recall drops only the rows written since and the neighbours of their sessions. A bulk import
 *   (import/bulk-load-gate.ts) inserts rows past the triggers and logs each new row's session
 *   with a null `doc_id`. `seq` never goes back (AUTOINCREMENT); the newest
 *   {@link CHANGE_LOG_KEEP} rows are kept.
 * - The three `memories_change_*` triggers move `change_seq` and log the row in one trigger, so
 *   an insert asks the bulk-load function once.
 */
const V13_SCHEMA = `
CREATE TABLE IF NOT EXISTS memory_changes (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  doc_id INTEGER,
  session_id TEXT
);

DROP TRIGGER IF EXISTS memory_changes_prune;
CREATE TRIGGER memory_changes_prune AFTER INSERT ON memory_changes BEGIN
  DELETE FROM memory_changes WHERE seq <= new.seq - ${CHANGE_LOG_KEEP};
END;

DROP TRIGGER IF EXISTS memories_change_insert;
CREATE TRIGGER memories_change_insert AFTER INSERT ON memories
WHEN memory_bulk_loading(new.doc_id) = 0 BEGIN
  UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'change_seq';
  INSERT INTO memory_changes (doc_id, session_id) VALUES (new.doc_id, new.session_id);
END;

DROP TRIGGER IF EXISTS memories_change_update;
CREATE TRIGGER memories_change_update AFTER UPDATE ON memories BEGIN
  UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'change_seq';
  INSERT INTO memory_changes (doc_id, session_id) VALUES (new.doc_id, new.session_id);
  INSERT INTO memory_changes (doc_id, session_id) SELECT old.doc_id, old.session_id
    WHERE old.doc_id IS NOT new.doc_id OR old.session_id IS NOT new.session_id;
END;

DROP TRIGGER IF EXISTS memories_change_delete;
CREATE TRIGGER memories_change_delete AFTER DELETE ON memories BEGIN
  UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'change_seq';
  INSERT INTO memory_changes (doc_id, session_id) VALUES (old.doc_id, old.session_id);
END;
`;

/** Moves a v12 store to v13 inside the caller's transaction: the change log and its triggers. */
export function upgradeToV13(db: Database.Database): void {
  db.exec(V13_SCHEMA);
}
