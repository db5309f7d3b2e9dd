import type Database from "better-sqlite3";

/** Prepared statements keyed by their SQL text (which never contains user input). */
export class StatementCache {
  readonly db: Database.Database;
  readonly #statements = new Map<string, Database.Statement>();
  #inCallersTransaction = false;
  #snapshotOpen = false;

  constructor(db: Database.Database) {
    this.db = db;
  }

  /**
   * `PRAGMA data_version`: moves when another connection commits. A cached statement, because
   * `db.pragma()` prepares anew on every call and this runs on every recall.
   */
  dataVersion(): number {
    return this.get("PRAGMA data_version").pluck().get() as number;
  }

  /**
   * `meta.change_seq` (schema v10): moves on every write to what recall reads (entries, pins and
   * snoozes, vectors, relations), by this connection or another, and not on usage writes, which
   * every recall makes. The token of the recall cache and of cached keyword statistics.
   */
  writeVersion(): string {
    return this.get("SELECT value FROM meta WHERE key = 'change_seq'").pluck().get() as string;
  }

  /**
   * Runs `read`, whose statements only read, in one read transaction when none is open. Outside
   * a transaction every statement takes and drops the WAL read lock itself (a few microseconds
   * of locking calls each, most of a small statement's cost); a recall stage runs three to six.
   * The transaction also gives them one snapshot. `read` must be synchronous: no other code may
   * run on this connection while the transaction is open.
   */
  snapshot<T>(read: () => T): T {
    // Nested in a snapshot of ours: already in it. In a transaction of the caller's: read there.
    if (this.#snapshotOpen) return read();
    if (this.db.inTransaction) {
      const outer = this.#inCallersTransaction;
      this.#inCallersTransaction = true;
      try {
        return read();
      } finally {
        this.#inCallersTransaction = outer;
      }
    }
    this.get("BEGIN").run();
    this.#snapshotOpen = true;
    try {
      return read();
    } finally {
      this.#snapshotOpen = false;
      // A failed statement may already have ended the transaction.
      if (this.db.inTransaction) this.get("COMMIT").run();
    }
  }

  /**
   * True while a `snapshot` reads inside a transaction its caller opened: what it reads may
   * still be rolled back, so nothing read there may be kept for later reads.
   */
  get inCallersTransaction(): boolean {
    return this.#inCallersTransaction;
  }

  get(sql: string): Database.Statement {
    let statement = this.#statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.#statements.set(sql, statement);
    }
    return statement;
  }
}
