import type { Migration } from "./migration.js";

/**
 * Schema 3: what lifecycle jobs coordinate through. `leases` holds one row per job name; a
 * released or expired lease keeps its row (expired) so the next holder's fencing token goes
 * up. `expires_at` is epoch milliseconds by the clock of the memory that wrote it (its `now`
 * option), not the server's, so tests can move time. `job_state` holds each job's state as
 * JSON text (text, not jsonb: the state round-trips exactly, NUL escapes included).
 * Only tables are added; no row of an older schema is touched.
 */
export const lifecycle: Migration = {
  version: 3,
  name: "leases and job state",
  up: (s) => `
    CREATE TABLE ${s}.leases (
      name text PRIMARY KEY,
      holder text NOT NULL,
      token bigint NOT NULL,
      expires_at bigint NOT NULL
    );
    CREATE TABLE ${s}.job_state (
      job text PRIMARY KEY,
      state text NOT NULL,
      updated_at timestamptz NOT NULL DEFAULT now()
    );
  `,
};
