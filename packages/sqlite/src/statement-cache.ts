import type Database from "better-sqlite3";

/** Prepared statements keyed by their SQL text (which never contains user input). */
export class StatementCache {
  readonly db: Database.Database;
  readonly #statements = new Map<string, Database.Statement>();

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

  get(sql: string): Database.Statement {
    let statement = this.#statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.#statements.set(sql, statement);
    }
    return statement;
  }
}
