/** The current schema version, recorded in `meta.schema_version`. */
export const SCHEMA_VERSION = 13;

/**
 * Schema v1. `doc_id` is an explicit INTEGER PRIMARY KEY because the FTS index refers to it
 * (an implicit rowid may be renumbered by VACUUM). Vectors live in their own table as float32
 * BLOBs with the content hash they were computed from, so a stale vector is recognisable.
 */
export const SCHEMA_V1 = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
INSERT OR IGNORE INTO meta (key, value) VALUES ('vector_deletes', '0');

CREATE TABLE IF NOT EXISTS memories (
  doc_id INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  namespace TEXT NOT NULL DEFAULT 'default',
  key TEXT NOT NULL,
  content TEXT NOT NULL,
  category TEXT NOT NULL DEFAULT 'core',
  session_id TEXT,
  importance REAL,
  superseded_by TEXT,
  content_hash TEXT NOT NULL,
  cjk_text TEXT NOT NULL DEFAULT '',
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  UNIQUE (namespace, key)
);
CREATE INDEX IF NOT EXISTS memories_namespace_updated ON memories (namespace, updated_at);
-- Export streams oldest first by created_at across namespaces, in keyset pages.
CREATE INDEX IF NOT EXISTS memories_created ON memories (created_at);
CREATE INDEX IF NOT EXISTS memories_session ON memories (session_id) WHERE session_id IS NOT NULL;

CREATE VIRTUAL TABLE IF NOT EXISTS memories_fts USING fts5(
  key, content, cjk_text,
  content = 'memories', content_rowid = 'doc_id',
  tokenize = 'unicode61 remove_diacritics 2'
);
CREATE VIRTUAL TABLE IF NOT EXISTS memories_fts_vocab USING fts5vocab(memories_fts, 'row');

CREATE TRIGGER IF NOT EXISTS memories_fts_insert AFTER INSERT ON memories BEGIN
  INSERT INTO memories_fts (rowid, key, content, cjk_text) VALUES (new.doc_id, new.key, new.content, new.cjk_text);
END;
CREATE TRIGGER IF NOT EXISTS memories_fts_delete AFTER DELETE ON memories BEGIN
  INSERT INTO memories_fts (memories_fts, rowid, key, content, cjk_text) VALUES ('delete', old.doc_id, old.key, old.content, old.cjk_text);
  DELETE FROM memory_vectors WHERE doc_id = old.doc_id;
END;
CREATE TRIGGER IF NOT EXISTS memories_fts_update AFTER UPDATE OF key, content, cjk_text ON memories
WHEN old.key IS NOT new.key OR old.content IS NOT new.content OR old.cjk_text IS NOT new.cjk_text BEGIN
  INSERT INTO memories_fts (memories_fts, rowid, key, content, cjk_text) VALUES ('delete', old.doc_id, old.key, old.content, old.cjk_text);
  INSERT INTO memories_fts (rowid, key, content, cjk_text) VALUES (new.doc_id, new.key, new.content, new.cjk_text);
END;

CREATE TABLE IF NOT EXISTS memory_vectors (
  doc_id INTEGER PRIMARY KEY,
  seq INTEGER NOT NULL,
  content_hash TEXT NOT NULL,
  embedding BLOB NOT NULL
);
CREATE INDEX IF NOT EXISTS memory_vectors_seq ON memory_vectors (seq);
-- Other processes keep an in-memory copy of the vectors; this counter tells them rows went away.
CREATE TRIGGER IF NOT EXISTS memory_vectors_deleted AFTER DELETE ON memory_vectors BEGIN
  UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'vector_deletes';
END;

CREATE TABLE IF NOT EXISTS embedding_cache (
  content_hash TEXT NOT NULL,
  fingerprint TEXT NOT NULL,
  embedding BLOB NOT NULL,
  created_at TEXT NOT NULL,
  accessed_at TEXT NOT NULL,
  access_seq INTEGER NOT NULL,
  PRIMARY KEY (content_hash, fingerprint)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS embedding_cache_lru ON embedding_cache (access_seq);
`;

/**
 * Schema v2: the full-text triggers stand aside while `meta.fts_deferred` exists. A bulk import
 * into an empty store sets it, writes rows only, and rebuilds the FTS index once at the end:
 * measured 1 s to rebuild 100k rows against about 3 s of per-row trigger work. If the import
 * dies, the flag survives it and the next open rebuilds (schema v4 replaced the flag). The vector cleanup
 * of the old delete trigger moves to its own trigger, because it must never be skipped.
 */
export const SCHEMA_V2 = `
DROP TRIGGER IF EXISTS memories_fts_insert;
DROP TRIGGER IF EXISTS memories_fts_delete;
DROP TRIGGER IF EXISTS memories_fts_update;

CREATE TRIGGER memories_fts_insert AFTER INSERT ON memories
WHEN NOT EXISTS (SELECT 1 FROM meta WHERE key = 'fts_deferred') BEGIN
  INSERT INTO memories_fts (rowid, key, content, cjk_text) VALUES (new.doc_id, new.key, new.content, new.cjk_text);
END;
CREATE TRIGGER memories_fts_delete AFTER DELETE ON memories
WHEN NOT EXISTS (SELECT 1 FROM meta WHERE key = 'fts_deferred') BEGIN
  INSERT INTO memories_fts (memories_fts, rowid, key, content, cjk_text) VALUES ('delete', old.doc_id, old.key, old.content, old.cjk_text);
END;
CREATE TRIGGER IF NOT EXISTS memories_vectors_cleanup AFTER DELETE ON memories BEGIN
  DELETE FROM memory_vectors WHERE doc_id = old.doc_id;
END;
CREATE TRIGGER memories_fts_update AFTER UPDATE OF key, content, cjk_text ON memories
WHEN (old.key IS NOT new.key OR old.content IS NOT new.content OR old.cjk_text IS NOT new.cjk_text)
  AND NOT EXISTS (SELECT 1 FROM meta WHERE key = 'fts_deferred') BEGIN
  INSERT INTO memories_fts (memories_fts, rowid, key, content, cjk_text) VALUES ('delete', old.doc_id, old.key, old.content, old.cjk_text);
  INSERT INTO memories_fts (rowid, key, content, cjk_text) VALUES (new.doc_id, new.key, new.content, new.cjk_text);
END;
`;
