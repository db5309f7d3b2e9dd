import type Database from "better-sqlite3";

/** The SQL function the full-text and statistics triggers ask before they index a row. */
export const BULK_LOADING_FUNCTION = "memory_bulk_loading";

/**
 * Bulk imports index a batch set-based instead of row by row, without any other connection
 * ever seeing a half-indexed store.
 *
 * The triggers that keep the FTS index, `namespace_stats` and the change token in step with
 * `memories` run only when `memory_bulk_loading(doc_id)` is 0. That function is defined per
 * connection: every connection this package opens answers 0, except the importing one while it
 * writes a batch, which answers 1 for rows it inserts (doc ids above the batch's watermark).
 * Inside the same IMMEDIATE transaction it then indexes those rows with two set-based statements
 * and moves the token once. Readers see the batch (rows, index and statistics) all at once at
 * commit, or not at all; a crash or a kill rolls the batch back; there is no flag to leave
 * behind and nothing to repair.
 *
 * Rows that existed before the batch keep their triggers (an update of an old row re-indexes it
 * as usual); rows the batch inserts and then updates or deletes are indexed once, as they are at
 * the end of the batch.
 */
export class BulkLoadGate {
  #watermark: number | undefined;
  // Prepared once: a store that keeps a version writes a two-entry batch through this gate, and
  // preparing these statements each time cost more than the batch itself.
  #statements:
    | {
        watermark: Database.Statement;
        fts: Database.Statement;
        stats: Database.Statement;
        changed: Database.Statement;
        logged: Database.Statement;
      }
    | undefined;

  constructor(db: Database.Database) {
    db.function(BULK_LOADING_FUNCTION, { deterministic: false }, (docId) =>
      this.#watermark !== undefined && Number(docId) > this.#watermark ? 1 : 0,
    );
  }

  /**
   * Runs `write` with the triggers standing aside for the rows it inserts, then indexes those
   * rows. Must run inside the caller's write transaction (the watermark is only stable there).
   */
  loadBatch<T>(db: Database.Database, write: () => T): T {
    this.#statements ??= {
      watermark: db.prepare("SELECT coalesce(max(doc_id), 0) AS watermark FROM memories"),
      fts: db.prepare(
        "INSERT INTO memories_fts (rowid, search_terms) SELECT doc_id, search_terms FROM memories WHERE doc_id > ?",
      ),
      stats: db.prepare(
        `INSERT INTO namespace_stats (namespace, documents, terms)
       SELECT namespace, count(*), sum(term_count) FROM memories WHERE doc_id > ? GROUP BY namespace
       ON CONFLICT (namespace) DO UPDATE SET
         documents = documents + excluded.documents, terms = terms + excluded.terms`,
      ),
      // The recall cache's token (schema v10), whose trigger the inserted rows skipped too.
      changed: db.prepare(
        "UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'change_seq'",
      ),
      // The change log (schema v13): the rows skipped it, so one row without a doc id tells
      // readers to start over (new sessions' neighbours, new terms' frequencies).
      logged: db.prepare("INSERT INTO memory_changes (doc_id) VALUES (NULL)"),
    };
    const statements = this.#statements;
    const { watermark } = statements.watermark.get() as { watermark: number };
    this.#watermark = watermark;
    let result: T;
    try {
      result = write();
    } finally {
      this.#watermark = undefined;
    }
    statements.fts.run(watermark);
    statements.stats.run(watermark);
    statements.changed.run();
    statements.logged.run();
    return result;
  }
}
