import { type DriverLeases, type Lease, leaseFromRow, nowIso } from "@memory/api";
import type { Opened } from "./opened-store.js";

interface LeaseRow {
  name: string;
  holder: string;
  token: number;
  expires_at: number;
}

/**
 * One UPSERT, atomic on its own (SQLite holds the write lock for the statement): a missing row
 * is inserted with token 1; an expired row changes hands with token + 1; a live row is extended
 * only for its holder (same token). When the WHERE refuses, nothing is written and nothing is
 * returned. Every SET expression reads the old row.
 */
const ACQUIRE = `
INSERT INTO leases (name, holder, token, expires_at) VALUES (?, ?, 1, ?)
ON CONFLICT (name) DO UPDATE SET
  token = CASE WHEN leases.expires_at <= ? THEN leases.token + 1 ELSE leases.token END,
  holder = excluded.holder,
  expires_at = excluded.expires_at
WHERE leases.expires_at <= ? OR leases.holder = excluded.holder
RETURNING name, holder, token, expires_at`;

/** Leases and job state in the `leases` and `job_state` tables, shared by every process. */
export function sqliteLeases(run: <T>(body: (opened: Opened) => T) => Promise<T>): DriverLeases {
  return {
    acquire: (name, holder, ttlMs, nowMs) =>
      run((opened): Lease | null => {
        const row = opened.statements.get(ACQUIRE).get(name, holder, nowMs + ttlMs, nowMs, nowMs) as
          | LeaseRow
          | undefined;
        return row ? leaseFromRow({ ...row, expiresAtMs: row.expires_at }) : null;
      }),
    // Expired, not deleted: the row stays so the token keeps counting.
    release: ({ name, holder, token }) =>
      run(
        (opened) =>
          opened.statements
            .get("UPDATE leases SET expires_at = 0 WHERE name = ? AND holder = ? AND token = ?")
            .run(name, holder, token).changes > 0,
      ),
    readJobState: (job) =>
      run((opened) => {
        const row = opened.statements.get("SELECT state FROM job_state WHERE job = ?").get(job) as
          | { state: string }
          | undefined;
        return row?.state ?? null;
      }),
    writeJobState: (job, json) =>
      run((opened) => {
        opened.statements
          .get(
            `INSERT INTO job_state (job, state, updated_at) VALUES (?, ?, ?)
             ON CONFLICT (job) DO UPDATE SET state = excluded.state, updated_at = excluded.updated_at`,
          )
          .run(job, json, nowIso());
      }),
  };
}
