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
   * Moves on every commit of another connection (`data_version`) and every row this connection
   * writes (`total_changes()`, triggers included): the token of what this connection sees, for
   * caches that this connection's own writes must also invalidate.
   */
  writeVersion(): string {
    return this.get(
      "SELECT (SELECT data_version FROM pragma_data_version) || ':' || total_changes()",
    )
      .pluck()
      .get() as string;
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
