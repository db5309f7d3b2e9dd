import type Database from "better-sqlite3";

/**
 * Schema v8: recall filters answered from indexes. A filtered recall (categories, and so a
 * recall that leaves collections out, since a collection's fragments are its category; a
 * session; a time range) read each candidate's row to test it, and rows are large (content and
 * search terms inline, often on overflow pages): at 100,000 entries, two thirds of them a
 * collection's, `collections: false` took 3 times as long as searching everything.
 *
 * - `memories_filter_by_doc`: the filtered full-text candidates test each match through this
 *   covering index (doc id first, as the FTS rowid joins on it), never the row.
 * - `memories_category`: the vector stage's exact scan of a narrow category filter reads doc
 *   ids and content hashes from this covering index.
 *
 * Both cost about 60 bytes an entry and are built once, here (under a second at 100,000).
 */
const V8_INDEXES = `
CREATE INDEX IF NOT EXISTS memories_filter_by_doc
  ON memories (doc_id, namespace, category, superseded_by, session_id, updated_at);
CREATE INDEX IF NOT EXISTS memories_category
  ON memories (namespace, category, superseded_by, content_hash);
`;

/** Moves a v7 store to v8 inside the caller's transaction; only adds indexes. */
export function upgradeToV8(db: Database.Database): void {
  db.exec(V8_INDEXES);
}
