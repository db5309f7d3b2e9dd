import {
  type DeleteFilter,
  type DeleteReport,
  type JobState,
  type Lease,
  leaseFromRow,
  normalizeDeleteFilter,
  serializeJobState,
  validateLease,
  validateLeaseName,
  validateLeaseTtl,
} from "@memory/api";
import type { Database } from "./database.js";
import { Params } from "./sql.js";

/**
 * `Memory.deleteEntries` in one statement: the window ranks every entry of a (namespace,
 * category) in scope, whatever the age and supersession conditions (the retention floor), the
 * DELETE runs as a data-modifying CTE, and the report counts what it really removed. Keys
 * compare by code point (`COLLATE "C"`), as SQLite and the reference backend compare them.
 * Vectors go with their rows (ON DELETE CASCADE).
 */
export async function deleteMatchingEntries(
  db: Database,
  memories: string,
  filter: DeleteFilter,
): Promise<DeleteReport> {
  const normalized = normalizeDeleteFilter(filter);
  const params = new Params();
  const scope: string[] = [];
  if (normalized.namespace !== undefined)
    scope.push(`namespace = ${params.add(normalized.namespace)}`);
  if (normalized.categories !== undefined)
    scope.push(`category = ANY(${params.add(normalized.categories)}::text[])`);
  const eligible: string[] = [];
  if (normalized.olderThan !== undefined)
    eligible.push(`updated_at < ${params.add(normalized.olderThan)}::timestamptz`);
  if (normalized.superseded === true) eligible.push("superseded_by IS NOT NULL");
  if (normalized.superseded === false) eligible.push("superseded_by IS NULL");
  const keep = params.add(normalized.keepNewest);
  const ranked = `WITH ranked AS (
      SELECT id, category, updated_at, superseded_by,
        row_number() OVER (PARTITION BY namespace, category
          ORDER BY updated_at DESC, key COLLATE "C" DESC) AS newest_rank
      FROM ${memories} ${scope.length > 0 ? `WHERE ${scope.join(" AND ")}` : ""}
    ), eligible AS (
      SELECT id, category, newest_rank > ${keep}::int AS doomed FROM ranked
      ${eligible.length > 0 ? `WHERE ${eligible.join(" AND ")}` : ""}
    )`;
  const sql = normalized.dryRun
    ? `${ranked}
       SELECT category, count(*) AS eligible, count(*) FILTER (WHERE doomed) AS deleted
       FROM eligible GROUP BY category`
    : `${ranked}, gone AS (
         DELETE FROM ${memories} m USING eligible e WHERE m.id = e.id AND e.doomed RETURNING m.id
       )
       SELECT e.category, count(*) AS eligible, count(g.id) AS deleted
       FROM eligible e LEFT JOIN gone g ON g.id = e.id GROUP BY e.category`;
  const result = await db.query<{ category: string; eligible: string; deleted: string }>(
    "deleteEntries",
    sql,
    params.values,
  );
  const report: DeleteReport = { deleted: 0, byCategory: {} };
  for (const row of result.rows) {
    const counts = { eligible: Number(row.eligible), deleted: Number(row.deleted) };
    report.byCategory[row.category] = counts;
    report.deleted += counts.deleted;
  }
  return report;
}

interface LeaseRow {
  name: string;
  holder: string;
  token: string;
  expires_at: string;
}

/**
 * One INSERT ... ON CONFLICT DO UPDATE: PostgreSQL locks the conflicting row and evaluates the
 * WHERE on its latest committed version, so of concurrent acquirers exactly one wins a free or
 * expired lease. An expired lease changes hands with token + 1; a live one is extended only
 * for its holder, same token; otherwise nothing is written and no row comes back.
 */
export async function acquireLease(
  db: Database,
  schema: string,
  now: () => number,
  name: string,
  holder: string,
  ttlMs: number,
): Promise<Lease | null> {
  const leaseName = validateLeaseName(name);
  const leaseHolder = validateLeaseName(holder, "lease holder");
  const ttl = validateLeaseTtl(ttlMs);
  const time = now();
  const result = await db.query<LeaseRow>(
    "acquireLease",
    `INSERT INTO ${schema}.leases AS l (name, holder, token, expires_at) VALUES ($1, $2, 1, $3)
     ON CONFLICT (name) DO UPDATE SET
       token = CASE WHEN l.expires_at <= $4 THEN l.token + 1 ELSE l.token END,
       holder = EXCLUDED.holder,
       expires_at = EXCLUDED.expires_at
     WHERE l.expires_at <= $4 OR l.holder = EXCLUDED.holder
     RETURNING name, holder, token, expires_at`,
    [leaseName, leaseHolder, time + ttl, time],
  );
  const row = result.rows[0];
  return row ? leaseFromRow({ ...row, expiresAtMs: row.expires_at }) : null;
}

/** Expires the lease (the row stays so the token keeps counting) only for its current holder. */
export async function releaseLease(db: Database, schema: string, lease: Lease): Promise<boolean> {
  const { name, holder, token } = validateLease(lease);
  const result = await db.query(
    "releaseLease",
    `UPDATE ${schema}.leases SET expires_at = 0 WHERE name = $1 AND holder = $2 AND token = $3`,
    [name, holder, token],
  );
  return (result.rowCount ?? 0) > 0;
}

export async function getJobState(
  db: Database,
  schema: string,
  job: string,
): Promise<JobState | null> {
  const result = await db.query<{ state: string }>(
    "getJobState",
    `SELECT state FROM ${schema}.job_state WHERE job = $1`,
    [validateLeaseName(job, "job name")],
  );
  const row = result.rows[0];
  return row ? (JSON.parse(row.state) as JobState) : null;
}

export async function setJobState(
  db: Database,
  schema: string,
  job: string,
  state: JobState,
): Promise<void> {
  const name = validateLeaseName(job, "job name");
  const text = serializeJobState(state);
  await db.query(
    "setJobState",
    `INSERT INTO ${schema}.job_state (job, state, updated_at) VALUES ($1, $2, now())
     ON CONFLICT (job) DO UPDATE SET state = EXCLUDED.state, updated_at = EXCLUDED.updated_at`,
    [name, text],
  );
}
