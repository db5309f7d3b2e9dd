import type Database from "better-sqlite3";

/**
 * Schema v9: relations (docs/relations.md). One row per edge, identified by
 * `(namespace, from_key, to_key, type)`; keys, not doc ids, because an edge belongs to the
 * entry's identity (a same-key store or an import that replaces the id keeps it). A trigger
 * removes an entry's edges whenever its row is deleted, on every path (forget, purge, hygiene,
 * version pruning), in the same transaction. `metadata` is JSON text, read back as written.
 */
export const SCHEMA_V9 = `
CREATE TABLE IF NOT EXISTS relations (
  namespace TEXT NOT NULL,
  from_key TEXT NOT NULL,
  to_key TEXT NOT NULL,
  type TEXT NOT NULL,
  weight REAL NOT NULL,
  metadata TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  PRIMARY KEY (namespace, from_key, to_key, type)
) WITHOUT ROWID;
-- Incoming edges (relations(key, { direction: "in" }) and the delete trigger's to_key side).
CREATE INDEX IF NOT EXISTS relations_to ON relations (namespace, to_key);
CREATE TRIGGER IF NOT EXISTS memories_relations_cleanup AFTER DELETE ON memories BEGIN
  DELETE FROM relations WHERE namespace = old.namespace AND from_key = old.key;
  DELETE FROM relations WHERE namespace = old.namespace AND to_key = old.key;
END;
`;

export function upgradeToV9(db: Database.Database): void {
  db.exec(SCHEMA_V9);
}
