import type { HealthReport } from "@memory/api";
import type { Database } from "./database.js";

/**
 * Whether a write can succeed now, as far as PostgreSQL says without writing: a session whose
 * transactions are read-only (`default_transaction_read_only`) or a standby (in recovery)
 * refuses every write. A full disk cannot be seen from SQL without superuser rights; it shows
 * as STORE_NOT_WRITABLE on the write that meets it.
 */
export async function probeStorage(db: Database): Promise<NonNullable<HealthReport["storage"]>> {
  const result = await db.query<{ read_only: boolean; standby: boolean }>(
    "healthCheck",
    "SELECT current_setting('transaction_read_only') = 'on' AS read_only, pg_is_in_recovery() AS standby",
  );
  const { read_only: readOnly, standby } = result.rows[0]!;
  if (standby) {
    return {
      writable: false,
      reason:
        "PostgreSQL is a standby (in recovery) and refuses writes: connect to the primary; reads keep working.",
    };
  }
  if (readOnly) {
    return {
      writable: false,
      reason:
        "The PostgreSQL session is read-only (default_transaction_read_only is on for this role, database or connection): turn it off or connect to the primary; reads keep working.",
    };
  }
  return { writable: true };
}
