import { countIndexedTerms, indexedTerms } from "@memory/core";
import type Database from "better-sqlite3";

/**
 * Schema v3: the full-text index holds the shared analyzer's terms (`@memory/api`
 * `indexedTerms`: folded, stemmed, CJK bigrams), written by the library into
 * `memories.search_terms`, and tokenized by FTS5's `ascii` tokenizer, which only splits on
 * ASCII spaces and punctuation: what the library computed is exactly what FTS5 indexes, and
 * PostgreSQL indexes the same terms. `term_count` and `namespace_stats` give BM25 its
 * per-namespace statistics (entries and their mean length), kept by triggers, so a namespace's
 * ranking never depends on what other namespaces hold. Like the full-text triggers, they stand
 * aside during a bulk import into an empty store, which recomputes them once at the end.
 */
const V3_COLUMNS = `
DROP TRIGGER IF EXISTS memories_fts_insert;
DROP TRIGGER IF EXISTS memories_fts_delete;
DROP TRIGGER IF EXISTS memories_fts_update;
DROP TABLE IF EXISTS memories_fts_vocab;
DROP TABLE IF EXISTS memories_fts;
ALTER TABLE memories ADD COLUMN search_terms TEXT NOT NULL DEFAULT '';
ALTER TABLE memories ADD COLUMN term_count INTEGER NOT NULL DEFAULT 0;
`;

// Created after every row has its terms, so no trigger sees the half-filled table.
const V3_INDEX = `
DROP TRIGGER IF EXISTS memories_fts_insert;
DROP TRIGGER IF EXISTS memories_fts_delete;
DROP TRIGGER IF EXISTS memories_fts_update;
DROP TABLE IF EXISTS memories_fts_vocab;
DROP TABLE IF EXISTS memories_fts;

CREATE VIRTUAL TABLE memories_fts USING fts5(
  search_terms, content = 'memories', content_rowid = 'doc_id', tokenize = 'ascii'
);
CREATE VIRTUAL TABLE memories_fts_vocab USING fts5vocab(memories_fts, 'row');

CREATE TRIGGER memories_fts_insert AFTER INSERT ON memories
WHEN NOT EXISTS (SELECT 1 FROM meta WHERE key = 'fts_deferred') BEGIN
  INSERT INTO memories_fts (rowid, search_terms) VALUES (new.doc_id, new.search_terms);
END;
CREATE TRIGGER memories_fts_delete AFTER DELETE ON memories
WHEN NOT EXISTS (SELECT 1 FROM meta WHERE key = 'fts_deferred') BEGIN
  INSERT INTO memories_fts (memories_fts, rowid, search_terms) VALUES ('delete', old.doc_id, old.search_terms);
END;
CREATE TRIGGER memories_fts_update AFTER UPDATE OF search_terms ON memories
WHEN old.search_terms IS NOT new.search_terms
  AND NOT EXISTS (SELECT 1 FROM meta WHERE key = 'fts_deferred') BEGIN
  INSERT INTO memories_fts (memories_fts, rowid, search_terms) VALUES ('delete', old.doc_id, old.search_terms);
  INSERT INTO memories_fts (rowid, search_terms) VALUES (new.doc_id, new.search_terms);
END;

CREATE TABLE namespace_stats (
  namespace TEXT PRIMARY KEY,
  documents INTEGER NOT NULL,
  terms INTEGER NOT NULL
) WITHOUT ROWID;
CREATE TRIGGER namespace_stats_insert AFTER INSERT ON memories
WHEN NOT EXISTS (SELECT 1 FROM meta WHERE key = 'fts_deferred') BEGIN
  INSERT INTO namespace_stats (namespace, documents, terms) VALUES (new.namespace, 1, new.term_count)
  ON CONFLICT (namespace) DO UPDATE SET documents = documents + 1, terms = terms + new.term_count;
END;
CREATE TRIGGER namespace_stats_delete AFTER DELETE ON memories
WHEN NOT EXISTS (SELECT 1 FROM meta WHERE key = 'fts_deferred') BEGIN
  UPDATE namespace_stats SET documents = documents - 1, terms = terms - old.term_count
  WHERE namespace = old.namespace;
END;
CREATE TRIGGER namespace_stats_update AFTER UPDATE OF term_count, namespace ON memories
WHEN (old.term_count IS NOT new.term_count OR old.namespace IS NOT new.namespace)
  AND NOT EXISTS (SELECT 1 FROM meta WHERE key = 'fts_deferred') BEGIN
  UPDATE namespace_stats SET documents = documents - 1, terms = terms - old.term_count
  WHERE namespace = old.namespace;
  INSERT INTO namespace_stats (namespace, documents, terms) VALUES (new.namespace, 1, new.term_count)
  ON CONFLICT (namespace) DO UPDATE SET documents = documents + 1, terms = terms + new.term_count;
END;
`;

/** Moves a v2 store to v3 inside the caller's transaction: every row gets its terms, then one rebuild. */
export function upgradeToV3(db: Database.Database): void {
  db.exec(V3_COLUMNS);
  const update = db.prepare(
    "UPDATE memories SET search_terms = ?, term_count = ? WHERE doc_id = ?",
  );
  const rows = db.prepare("SELECT doc_id, key, content FROM memories").raw().all() as [
    number,
    string,
    string,
  ][];
  for (const [docId, key, content] of rows) {
    const terms = indexedTerms(key, content);
    update.run(terms, countIndexedTerms(terms), docId);
  }
  db.exec(V3_INDEX);
  rebuildNamespaceStats(db);
  db.exec("INSERT INTO memories_fts (memories_fts) VALUES ('rebuild')");
}

/** Recomputes every namespace's entry count and total terms from the rows. */
export function rebuildNamespaceStats(db: Database.Database): void {
  db.exec("DELETE FROM namespace_stats");
  db.exec(`INSERT INTO namespace_stats (namespace, documents, terms)
    SELECT namespace, count(*), sum(term_count) FROM memories GROUP BY namespace`);
}
