import type { DeleteReport, DeleteWhere, DriverLeases, Lease } from "@memory/api";
import { leaseFromRow } from "@memory/api";
import type { Database } from "./database.js";
import { Params } from "./sql.js";

/**
 * `Memory.deleteEntries` in one statement: the window ranks every entry of a (namespace,
 * category) in scope, whatever the age and supersession conditions (the retention floor), the
 * DELETE runs as a data-modifying CTE, and the report counts what it really removed. Keys
 * compare by code point (`COLLATE "C"`), as SQLite and the reference backend compare them.
 * Vectors, relations and usage go with their rows (ON DELETE CASCADE, and the usage trigger).
 */
export async function deleteMatchingEntries(
  db: Database,
  memories: string,
  normalized: DeleteWhere,
): Promise<DeleteReport> {
  const params = new Params();
  const scope: string[] = [];
  if (normalized.namespace !== undefined)
    scope.push(`namespace = ${params.add(normalized.namespace)}`);
  if (normalized.sessionId !== undefined)
    scope.push(`session_id = ${params.add(normalized.sessionId)}`);
  if (normalized.categories !== undefined)
    scope.push(`category = ANY(${params.add(normalized.categories)}::text[])`);
  const eligible: string[] = [];
  if (normalized.olderThan !== undefined)
    eligible.push(`updated_at < ${params.add(normalized.olderThan)}::timestamptz`);
  if (normalized.superseded === true) eligible.push("superseded_by IS NOT NULL");
  if (normalized.superseded === false) eligible.push("superseded_by IS NULL");
  // Pinned entries still hold their rank (the retention floor counts them), but are never
  // eligible: neither deleted nor counted by a dry run.
  if (normalized.keepPinned === true) eligible.push("NOT pinned");
  const keep = params.add(normalized.keepNewest);
  const ranked = `WITH ranked AS (
      SELECT id, category, updated_at, superseded_by, pinned,
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
 * Leases and job states in the schema's tables; the facade validated names, TTLs and JSON.
 *
 * `acquire` is one INSERT ... ON CONFLICT DO UPDATE: PostgreSQL locks the conflicting row and
 * evaluates the WHERE on its latest committed version, so of concurrent acquirers exactly one
 * wins a free or expired lease. An expired lease changes hands with token + 1; a live one is
 * extended only for its holder, same token; otherwise nothing is written and no row comes back.
 * `release` expires the lease (the row stays so the token keeps counting) only for its holder.
 */
export function postgresLeases(db: Database, schema: string): DriverLeases {
  return {
    async acquire(name, holder, ttlMs, nowMs): Promise<Lease | null> {
      const result = await db.query<LeaseRow>(
        "acquireLease",
        `INSERT INTO ${schema}.leases AS l (name, holder, token, expires_at) VALUES ($1, $2, 1, $3)
         ON CONFLICT (name) DO UPDATE SET
           token = CASE WHEN l.expires_at <= $4 THEN l.token + 1 ELSE l.token END,
           holder = EXCLUDED.holder,
           expires_at = EXCLUDED.expires_at
         WHERE l.expires_at <= $4 OR l.holder = EXCLUDED.holder
         RETURNING name, holder, token, expires_at`,
        [name, holder, nowMs + ttlMs, nowMs],
      );
      const row = result.rows[0];
      return row ? leaseFromRow({ ...row, expiresAtMs: row.expires_at }) : null;
    },
    async release({ name, holder, token }): Promise<boolean> {
      const result = await db.query(
        "releaseLease",
        `UPDATE ${schema}.leases SET expires_at = 0 WHERE name = $1 AND holder = $2 AND token = $3`,
        [name, holder, token],
      );
      return (result.rowCount ?? 0) > 0;
    },
    async readJobState(job): Promise<string | null> {
      const result = await db.query<{ state: string }>(
        "getJobState",
        `SELECT state FROM ${schema}.job_state WHERE job = $1`,
        [job],
      );
      return result.rows[0]?.state ?? null;
    },
    async writeJobState(job, json): Promise<void> {
      await db.query(
        "setJobState",
        `INSERT INTO ${schema}.job_state (job, state, updated_at) VALUES ($1, $2, now())
         ON CONFLICT (job) DO UPDATE SET state = EXCLUDED.state, updated_at = EXCLUDED.updated_at`,
        [job, json],
      );
    },
  };
}
