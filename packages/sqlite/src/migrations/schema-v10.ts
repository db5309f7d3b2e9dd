import type Database from "better-sqlite3";

/**
 * Schema v10: usage (docs/usage.md, issue 28).
 *
 * - `memories.pinned` (0/1) and `memories.snoozed_until` (an instant, or NULL). Recall leaves out
 *   entries snoozed past its `awakeAt` through `memories_snoozed`, a partial index that holds
 *   only snoozed rows: the filter asks it for their doc ids once per statement (filter-sql.ts),
 *   so the covering indexes of schema v8 still answer every other condition.
 * - `usage_events`: append-only, `seq` never reused (AUTOINCREMENT) so "the newest `keep`" is
 *   well defined across pruning. Indexed for one recall's events, an entry's events (the
 *   cascade below) and pruning by time (pruning by count walks the primary key).
 * - `usage_records`: one row per entry, the statistics as columns (SQL can sort by them), the
 *   recent query hashes as a JSON array.
 * - `memories_usage_cleanup`: deleting an entry removes its events and its record on EVERY path
 *   (a write batch's delete, `deleteWhere`, purges, version pruning, a future one), in the same
 *   transaction; a trigger, like the relations cleanup of v9, because a path that forgets would
 *   leave statistics for a key that a later store revives.
 * - `change_seq` in `meta`: the recall cache's change token (`changeToken`). It moves on every
 *   write to what recall reads (entries, including pins and snoozes; vectors; relations) and
 *   NOT on usage writes, which every recall makes: `PRAGMA data_version`, the token before,
 *   moved on any commit, so one process's recalls emptied every other process's cache.
 *   Rows a bulk import inserts skip the trigger; the import bumps it once (bulk-load-gate.ts).
 */
const V10_SCHEMA = `
CREATE INDEX IF NOT EXISTS memories_snoozed ON memories (snoozed_until) WHERE snoozed_until IS NOT NULL;

CREATE TABLE IF NOT EXISTS usage_events (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  recall_id TEXT NOT NULL,
  namespace TEXT NOT NULL,
  key TEXT NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('surfaced', 'used', 'ignored')),
  at TEXT NOT NULL,
  query TEXT,
  source TEXT NOT NULL
);
-- Entries of an index are ordered by rowid after its columns: one recall's events come in seq order.
CREATE INDEX IF NOT EXISTS usage_events_recall ON usage_events (namespace, recall_id);
CREATE INDEX IF NOT EXISTS usage_events_entry ON usage_events (namespace, key);
CREATE INDEX IF NOT EXISTS usage_events_at ON usage_events (at);

CREATE TABLE IF NOT EXISTS usage_records (
  namespace TEXT NOT NULL,
  key TEXT NOT NULL,
  surfaced INTEGER NOT NULL,
  used INTEGER NOT NULL,
  ignored INTEGER NOT NULL,
  queries INTEGER NOT NULL,
  days INTEGER NOT NULL,
  last_surfaced_at TEXT,
  last_used_at TEXT,
  last_used_day TEXT,
  recent_queries TEXT NOT NULL CHECK (json_valid(recent_queries)),
  PRIMARY KEY (namespace, key)
) WITHOUT ROWID;

CREATE TRIGGER IF NOT EXISTS memories_usage_cleanup AFTER DELETE ON memories BEGIN
  DELETE FROM usage_events WHERE namespace = old.namespace AND key = old.key;
  DELETE FROM usage_records WHERE namespace = old.namespace AND key = old.key;
END;

INSERT OR IGNORE INTO meta (key, value) VALUES ('change_seq', '0');
${["INSERT", "UPDATE", "DELETE"]
  .flatMap((event) =>
    ["memories", "memory_vectors", "relations"].map((table) => {
      const row = event === "DELETE" ? "old" : "new";
      // Rows a bulk import inserts are counted once by the import itself. Only inserts ask:
      // a connection without the function (the sqlite3 shell) can still update and delete.
      const when =
        table === "memories" && event === "INSERT"
          ? ` WHEN memory_bulk_loading(${row}.doc_id) = 0`
          : "";
      return `CREATE TRIGGER IF NOT EXISTS ${table}_change_${event.toLowerCase()} AFTER ${event} ON ${table}${when} BEGIN
  UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'change_seq';
END;`;
    }),
  )
  .join("\n")}
`;

/** Moves a v9 store to v10 inside the caller's transaction; adds columns, tables and triggers. */
export function upgradeToV10(db: Database.Database): void {
  const columns = new Set(
    (db.prepare("PRAGMA table_info(memories)").all() as { name: string }[]).map((c) => c.name),
  );
  if (!columns.has("pinned"))
    db.exec("ALTER TABLE memories ADD COLUMN pinned INTEGER NOT NULL DEFAULT 0");
  if (!columns.has("snoozed_until")) db.exec("ALTER TABLE memories ADD COLUMN snoozed_until TEXT");
  db.exec(V10_SCHEMA);
}
