import type pg from "pg";
import type { Database } from "./database.js";

/**
 * The recall cache's change token (`RecallStages.changeToken`), shared by every replica of a
 * schema. A statement trigger on each table recall reads bumps the sequence `change_seq`, and
 * `change_token()` reads it, then returns NULL while a transaction holds a write lock on one of
 * those tables: its bump may already be counted while its rows are not yet visible, so a result
 * computed now must not be cached under the new value. Reading the sequence before the locks is
 * what makes that safe (a writer that bumps after the read leaves a newer value behind).
 */
export function changeTokenSql(schema: string): string {
  return `
    CREATE SEQUENCE IF NOT EXISTS ${schema}.change_seq;
    CREATE OR REPLACE FUNCTION ${schema}.bump_change_seq() RETURNS trigger
      LANGUAGE plpgsql AS $$ BEGIN PERFORM nextval('${schema}.change_seq'); RETURN NULL; END $$;
    CREATE OR REPLACE FUNCTION ${schema}.change_token() RETURNS text
      LANGUAGE plpgsql VOLATILE AS $$
      DECLARE
        version bigint;
      BEGIN
        SELECT CASE WHEN is_called THEN last_value ELSE 0 END INTO version FROM ${schema}.change_seq;
        IF EXISTS (
          SELECT 1 FROM pg_locks
           WHERE locktype = 'relation' AND granted
             AND mode IN ('RowExclusiveLock', 'ShareRowExclusiveLock', 'ExclusiveLock', 'AccessExclusiveLock')
             AND relation IN (to_regclass('${schema}.memories'), to_regclass('${schema}.memory_vectors'))
        ) THEN
          RETURN NULL;
        END IF;
        RETURN version::text;
      END $$;
    ${changeTriggerSql(schema, "memories")}
  `;
}

/** The statement trigger that bumps `change_seq` on every write to `table`. */
export function changeTriggerSql(schema: string, table: "memories" | "memory_vectors"): string {
  return `
    DROP TRIGGER IF EXISTS ${table}_changed ON ${schema}.${table};
    CREATE TRIGGER ${table}_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON ${schema}.${table}
      FOR EACH STATEMENT EXECUTE FUNCTION ${schema}.bump_change_seq();
  `;
}

/** After `memory_vectors` is created or replaced (a DROP fires no trigger): a new token. */
export async function markVectorsChanged(client: pg.PoolClient, schema: string): Promise<void> {
  await client.query(changeTriggerSql(schema, "memory_vectors"));
  await client.query(`SELECT nextval('${schema}.change_seq')`);
}

/** The current token, or undefined while a write is in progress (then nothing is cached). */
export async function readChangeToken(db: Database, schema: string): Promise<string | undefined> {
  const result = await db.query<{ token: string | null }>(
    "reading the change token",
    `SELECT ${schema}.change_token() AS token`,
  );
  return result.rows[0]?.token ?? undefined;
}
