import {
  type JobState,
  type Lease,
  leaseFromRow,
  nowIso,
  serializeJobState,
  validateLease,
  validateLeaseName,
  validateLeaseTtl,
} from "@memory/api";
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

export function acquireLease(
  opened: Opened,
  now: () => number,
  name: string,
  holder: string,
  ttlMs: number,
): Lease | null {
  const leaseName = validateLeaseName(name);
  const leaseHolder = validateLeaseName(holder, "lease holder");
  const ttl = validateLeaseTtl(ttlMs);
  const time = now();
  const row = opened.statements.get(ACQUIRE).get(leaseName, leaseHolder, time + ttl, time, time) as
    | LeaseRow
    | undefined;
  return row ? leaseFromRow({ ...row, expiresAtMs: row.expires_at }) : null;
}

/** Expires the lease (the row stays so the token keeps counting) only for its current holder. */
export function releaseLease(opened: Opened, lease: Lease): boolean {
  const { name, holder, token } = validateLease(lease);
  const result = opened.statements
    .get("UPDATE leases SET expires_at = 0 WHERE name = ? AND holder = ? AND token = ?")
    .run(name, holder, token);
  return result.changes > 0;
}

export function getJobState(opened: Opened, job: string): JobState | null {
  const row = opened.statements
    .get("SELECT state FROM job_state WHERE job = ?")
    .get(validateLeaseName(job, "job name")) as { state: string } | undefined;
  return row ? (JSON.parse(row.state) as JobState) : null;
}

export function setJobState(opened: Opened, job: string, state: JobState): void {
  const name = validateLeaseName(job, "job name");
  const text = serializeJobState(state);
  opened.statements
    .get(
      `INSERT INTO job_state (job, state, updated_at) VALUES (?, ?, ?)
       ON CONFLICT (job) DO UPDATE SET state = excluded.state, updated_at = excluded.updated_at`,
    )
    .run(name, text, nowIso());
}
