import type Database from "better-sqlite3";

/**
 * Schema v5: what lifecycle jobs coordinate through. `leases` holds one row per job name; a
 * released or expired lease keeps its row (expired) so the next holder's fencing token goes up.
 * `expires_at` is epoch milliseconds by the clock of the memory that wrote it. `job_state` holds
 * each job's JSON state.
 */
const V5_TABLES = `
CREATE TABLE IF NOT EXISTS leases (
  name TEXT PRIMARY KEY,
  holder TEXT NOT NULL,
  token INTEGER NOT NULL,
  expires_at INTEGER NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS job_state (
  job TEXT PRIMARY KEY,
  state TEXT NOT NULL CHECK (json_valid(state)),
  updated_at TEXT NOT NULL
) WITHOUT ROWID;
`;

/** Moves a v4 store to v5 inside the caller's transaction; only adds tables. */
export function upgradeToV5(db: Database.Database): void {
  db.exec(V5_TABLES);
}
