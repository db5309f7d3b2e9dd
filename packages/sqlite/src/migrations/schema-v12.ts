import type Database from "better-sqlite3";

/**
 * Schema v12: a recall's `surfaced` events in one row (issue 29; docs/usage.md).
 *
 * - `usage_surfaced`: one row per recall, its keys a JSON array in result order, written by
 *   `DriverUsage.surface`. A recall used to append a `usage_events` row per result (four B-trees
 *   each) and read, recompute and rewrite each result's record, all in one commit per recall:
 *   40% of the CPU of a tracked recall on a 419-entry conversation. Records catch up later
 *   ("folding", usage/surfaced-rows.ts): `meta.usage_folded_seq` is the last row applied, and
 *   every read of records folds first. Feedback and imports still go through `usage_events`.
 * - `usage_forgotten`: deleting an entry cannot reach its key inside those arrays, so the
 *   cleanup trigger notes the newest row at that moment; rows up to it no longer count the key
 *   (in a recall's events, feedback, folding and counts). A key stored again later starts from
 *   zero, as with `usage_events`. Pruning drops notes older than every remaining row.
 */
const V12_SCHEMA = `
CREATE TABLE IF NOT EXISTS usage_surfaced (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  recall_id TEXT NOT NULL,
  namespace TEXT NOT NULL,
  at TEXT NOT NULL,
  query TEXT,
  source TEXT NOT NULL,
  keys TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS usage_surfaced_recall ON usage_surfaced (namespace, recall_id);

CREATE TABLE IF NOT EXISTS usage_forgotten (
  namespace TEXT NOT NULL,
  key TEXT NOT NULL,
  through_seq INTEGER NOT NULL,
  PRIMARY KEY (namespace, key)
) WITHOUT ROWID;

INSERT OR IGNORE INTO meta (key, value) VALUES ('usage_folded_seq', '0');

DROP TRIGGER IF EXISTS memories_usage_cleanup;
CREATE TRIGGER memories_usage_cleanup AFTER DELETE ON memories BEGIN
  DELETE FROM usage_events WHERE namespace = old.namespace AND key = old.key;
  DELETE FROM usage_records WHERE namespace = old.namespace AND key = old.key;
  INSERT INTO usage_forgotten (namespace, key, through_seq)
    SELECT old.namespace, old.key, newest.seq
    FROM (SELECT max(seq) AS seq FROM usage_surfaced) AS newest
    WHERE newest.seq IS NOT NULL
    ON CONFLICT (namespace, key) DO UPDATE SET through_seq = excluded.through_seq;
END;
`;

/** Moves a v11 store to v12 inside the caller's transaction: two tables, the cleanup trigger. */
export function upgradeToV12(db: Database.Database): void {
  db.exec(V12_SCHEMA);
}
