import type { Migration } from "./migration.js";

/**
 * Schema 9: usage (docs/usage.md). Adding the two mark columns rewrites no row (a constant
 * default and a nullable column are catalogue-only changes).
 *
 * - `memories.pinned` / `memories.snoozed_until`: a person's marks, changed by write batches
 *   only (so they bump the change token like any other write to `memories`).
 * - `usage_events`: append-only, bounded by `DriverUsage.prune` (by `at`, then by `seq`). It has
 *   no foreign key, because events of keys that are not entries are appended all the same; the
 *   statement trigger `memories_usage_cascade` removes an entry's events in the statement that
 *   deletes the entry, whichever path deletes it (a write batch, `deleteWhere`, a purge), as ON
 *   DELETE CASCADE would. A trigger, not explicit deletes in each path, so a future delete path
 *   cannot forget them.
 * - `usage_records`: one row per entry, referencing it with ON DELETE CASCADE (a record exists
 *   only beside its entry). Keys are `COLLATE "C"` so the primary key's order is the code-point
 *   order `scan` pages by, whatever the database's collation. `stats` and `recent_queries` are
 *   JSON text (not jsonb: read back exactly as the facade wrote them). `stats IS NULL` marks a
 *   row that `record` inserted to lock it and has not filled yet (never visible to another
 *   transaction).
 *
 * Neither usage table has a change-token trigger: recall records usage on every call, and that
 * must not invalidate the recall cache.
 */
export const usage: Migration = {
  version: 9,
  name: "usage events, usage records, pins and snoozes",
  up: (s) => `
    ALTER TABLE ${s}.memories ADD COLUMN IF NOT EXISTS pinned boolean NOT NULL DEFAULT false;
    ALTER TABLE ${s}.memories ADD COLUMN IF NOT EXISTS snoozed_until timestamptz;

    CREATE TABLE IF NOT EXISTS ${s}.usage_events (
      seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      recall_id text NOT NULL,
      namespace text NOT NULL,
      key text NOT NULL,
      kind text NOT NULL CHECK (kind IN ('surfaced', 'used', 'ignored')),
      at timestamptz NOT NULL,
      query text,
      source text NOT NULL
    );
    -- The events of one recall (feedback), in append order.
    CREATE INDEX IF NOT EXISTS usage_events_recall ON ${s}.usage_events (namespace, recall_id, seq);
    -- Pruning by age (the primary key serves pruning by count).
    CREATE INDEX IF NOT EXISTS usage_events_at ON ${s}.usage_events (at);
    -- The cascade from a deleted entry.
    CREATE INDEX IF NOT EXISTS usage_events_entry ON ${s}.usage_events (namespace, key);

    CREATE TABLE IF NOT EXISTS ${s}.usage_records (
      namespace text COLLATE "C" NOT NULL,
      key text COLLATE "C" NOT NULL,
      stats text,
      last_used_day text,
      recent_queries text NOT NULL DEFAULT '[]',
      PRIMARY KEY (namespace, key),
      FOREIGN KEY (namespace, key) REFERENCES ${s}.memories (namespace, key) ON DELETE CASCADE
    );

    CREATE OR REPLACE FUNCTION ${s}.memory_usage_cascade() RETURNS trigger LANGUAGE plpgsql AS $fn$
    BEGIN
      DELETE FROM ${s}.usage_events e USING old_rows o
        WHERE e.namespace = o.namespace AND e.key = o.key;
      RETURN NULL;
    END
    $fn$;
    DROP TRIGGER IF EXISTS memories_usage_cascade ON ${s}.memories;
    CREATE TRIGGER memories_usage_cascade AFTER DELETE ON ${s}.memories
      REFERENCING OLD TABLE AS old_rows
      FOR EACH STATEMENT EXECUTE FUNCTION ${s}.memory_usage_cascade();
  `,
};
