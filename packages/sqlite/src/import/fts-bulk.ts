import type Database from "better-sqlite3";
import { rebuildNamespaceStats } from "../migrations/schema-v3.js";

/**
 * Deferred full-text indexing for bulk imports (schema v2). While the `fts_deferred` row exists
 * in `meta`, the FTS and namespace-statistics triggers do nothing; `finishDeferredFts` rebuilds the whole index from the
 * memories table in one pass and removes the flag, in one transaction. Used only when an import
 * starts on an empty store, where a rebuild costs about as much as the rows just written.
 */
export function beginDeferredFts(db: Database.Database): void {
  db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('fts_deferred', ?)").run(
    new Date().toISOString(),
  );
}

/** Rebuilds the FTS index and clears the flag; a no-op when no flag is set. */
export function finishDeferredFts(db: Database.Database): boolean {
  return db
    .transaction(() => {
      const flagged = db.prepare("SELECT 1 FROM meta WHERE key = 'fts_deferred'").get();
      if (!flagged) return false;
      db.exec("INSERT INTO memories_fts (memories_fts) VALUES ('rebuild')");
      rebuildNamespaceStats(db);
      db.prepare("DELETE FROM meta WHERE key = 'fts_deferred'").run();
      return true;
    })
    .immediate();
}

/** True when the store has no entry yet. */
export function isEmptyStore(db: Database.Database): boolean {
  return db.prepare("SELECT 1 FROM memories LIMIT 1").get() === undefined;
}
