import type Database from "better-sqlite3";

/**
 * Schema v6: session order. Recall's conversational context asks for the entries just before
 * and after a candidate in its session (same namespace and session, by creation time, then
 * doc id, which every index ends with); this index answers each in one seek.
 */
const V6_INDEXES = `
CREATE INDEX IF NOT EXISTS memories_session_order
  ON memories (namespace, session_id, created_at) WHERE session_id IS NOT NULL;
`;

/** Moves a v5 store to v6 inside the caller's transaction; only adds an index. */
export function upgradeToV6(db: Database.Database): void {
  db.exec(V6_INDEXES);
}
