import type Database from "better-sqlite3";

/**
 * Schema v11: the newest entries of one category without walking the namespace. The memory
 * context reads, every turn, the namespace's newest core facts and the session's latest
 * conversation turns (`list` with one category, newest first). With only
 * `memories_namespace_updated` (namespace, updated_at) SQLite walked the namespace from its
 * newest entry testing each row's category: at 12,000 entries and no core fact, 17-24 ms per
 * call, the larger part of a context. `memories_category_updated` finds the category's rows in
 * that order (doc id, the rowid, breaks ties), so such a list reads only the rows it returns;
 * filter-sql.ts writes a single category as `category = ?` so the planner can use it.
 * About 50 bytes an entry, built once here (under a second at 100,000 entries).
 */
const V11_INDEXES = `
CREATE INDEX IF NOT EXISTS memories_category_updated ON memories (namespace, category, updated_at);
`;

/** Moves a v10 store to v11 inside the caller's transaction; only adds an index. */
export function upgradeToV11(db: Database.Database): void {
  db.exec(V11_INDEXES);
}
