import type Database from "better-sqlite3";

/** Write transactions of one connection between two merge steps of the full-text index. */
export const WRITES_PER_MERGE = 32;

/** Pages of merge work per step (about 0.2 ms at 10k entries, 1.2 ms at 100k). */
const MERGE_PAGES = 64;

/**
 * Keeps the FTS5 index from fragmenting under single stores. Each store (and each forget) adds a
 * small segment; FTS5 merges a level only once it holds four, so an agent's store-then-recall
 * loop leaves a small conversation's index in many segments, and every query visits each: after
 * 200 stores and forgets on the 419-entry conversation the best-40 query took 226 us instead of
 * 155. Every 32nd write transaction of a connection (a store, a forget, a pin, a recall's usage)
 * also runs FTS5's `merge` command for up to 64 pages, inside that transaction (it does nothing
 * while no level holds four segments); with it the same loop stays at 158 us. Merging changes no
 * entry and no statistics.
 */
export class FtsUpkeep {
  #writes = 0;
  #merge: Database.Statement | undefined;

  /**
   * Counts a write transaction; runs a merge step on every 32nd, inside it. The step is upkeep:
   * in a savepoint of its own, so a step that fails (a disk near full, an index that cannot be
   * read) is undone and the write it rode with still commits.
   */
  afterWrite(db: Database.Database): void {
    this.#writes++;
    if (this.#writes % WRITES_PER_MERGE !== 0) return;
    db.exec("SAVEPOINT fts_upkeep");
    try {
      this.#merge ??= db.prepare(
        "INSERT INTO memories_fts (memories_fts, rank) VALUES ('merge', ?)",
      );
      this.#merge.run(MERGE_PAGES);
      db.exec("RELEASE fts_upkeep");
    } catch {
      db.exec("ROLLBACK TO fts_upkeep; RELEASE fts_upkeep");
    }
  }
}
