import type Database from "better-sqlite3";
import { rebuildNamespaceStats } from "./schema-v3.js";

/**
 * Schema v4: the full-text and statistics triggers ask `memory_bulk_loading(doc_id)`, a SQL
 * function every connection of this package defines (see `BulkLoadGate`), instead of a
 * `meta.fts_deferred` row that every connection saw: an import used to switch indexing off for
 * every process sharing the file, and a killed import left it off until the next open.
 *
 * The triggers need the function: a connection that did not define it (the sqlite3 shell, an
 * older @memory/sqlite, which refuses the newer schema anyway) cannot write to `memories`.
 */
const V4_TRIGGERS = `
DROP TRIGGER IF EXISTS memories_fts_insert;
DROP TRIGGER IF EXISTS memories_fts_delete;
DROP TRIGGER IF EXISTS memories_fts_update;
DROP TRIGGER IF EXISTS namespace_stats_insert;
DROP TRIGGER IF EXISTS namespace_stats_delete;
DROP TRIGGER IF EXISTS namespace_stats_update;

CREATE TRIGGER memories_fts_insert AFTER INSERT ON memories
WHEN memory_bulk_loading(new.doc_id) = 0 BEGIN
  INSERT INTO memories_fts (rowid, search_terms) VALUES (new.doc_id, new.search_terms);
END;
CREATE TRIGGER memories_fts_delete AFTER DELETE ON memories
WHEN memory_bulk_loading(old.doc_id) = 0 BEGIN
  INSERT INTO memories_fts (memories_fts, rowid, search_terms) VALUES ('delete', old.doc_id, old.search_terms);
END;
CREATE TRIGGER memories_fts_update AFTER UPDATE OF search_terms ON memories
WHEN old.search_terms IS NOT new.search_terms AND memory_bulk_loading(new.doc_id) = 0 BEGIN
  INSERT INTO memories_fts (memories_fts, rowid, search_terms) VALUES ('delete', old.doc_id, old.search_terms);
  INSERT INTO memories_fts (rowid, search_terms) VALUES (new.doc_id, new.search_terms);
END;

CREATE TRIGGER namespace_stats_insert AFTER INSERT ON memories
WHEN memory_bulk_loading(new.doc_id) = 0 BEGIN
  INSERT INTO namespace_stats (namespace, documents, terms) VALUES (new.namespace, 1, new.term_count)
  ON CONFLICT (namespace) DO UPDATE SET documents = documents + 1, terms = terms + new.term_count;
END;
CREATE TRIGGER namespace_stats_delete AFTER DELETE ON memories
WHEN memory_bulk_loading(old.doc_id) = 0 BEGIN
  UPDATE namespace_stats SET documents = documents - 1, terms = terms - old.term_count
  WHERE namespace = old.namespace;
END;
CREATE TRIGGER namespace_stats_update AFTER UPDATE OF term_count, namespace ON memories
WHEN (old.term_count IS NOT new.term_count OR old.namespace IS NOT new.namespace)
  AND memory_bulk_loading(new.doc_id) = 0 BEGIN
  UPDATE namespace_stats SET documents = documents - 1, terms = terms - old.term_count
  WHERE namespace = old.namespace;
  INSERT INTO namespace_stats (namespace, documents, terms) VALUES (new.namespace, 1, new.term_count)
  ON CONFLICT (namespace) DO UPDATE SET documents = documents + 1, terms = terms + new.term_count;
END;
`;

/**
 * Moves a v3 store to v4 inside the caller's transaction. A store left with `fts_deferred` by an
 * import that an older version did not finish gets its index and statistics rebuilt here.
 */
export function upgradeToV4(db: Database.Database): void {
  db.exec(V4_TRIGGERS);
  const deferred = db.prepare("DELETE FROM meta WHERE key = 'fts_deferred'").run();
  if (deferred.changes > 0) {
    db.exec("INSERT INTO memories_fts (memories_fts) VALUES ('rebuild')");
    rebuildNamespaceStats(db);
  }
}
