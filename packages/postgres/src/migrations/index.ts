import type pg from "pg";
import { initial } from "./001-initial.js";
import { searchTerms } from "./002-search-terms.js";
import { lifecycle } from "./003-lifecycle.js";
import { sessionOrder } from "./004-session-order.js";
import { changeToken } from "./005-change-token.js";
import { decisionRecords } from "./006-decision-records.js";
import { categoryIndex } from "./007-category-index.js";
import { relations } from "./008-relations.js";
import { usage } from "./009-usage.js";
import { searchPendingList } from "./010-search-pending-list.js";
import type { Migration } from "./migration.js";

export type { Migration } from "./migration.js";

/** Every migration, oldest first. Append only: a released migration never changes. */
export const MIGRATIONS: readonly Migration[] = [
  initial,
  searchTerms,
  lifecycle,
  sessionOrder,
  changeToken,
  decisionRecords,
  categoryIndex,
  relations,
  usage,
  searchPendingList,
];

/** The newest schema version this package knows. */
export const SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1]!.version;

// First key of every advisory lock this package takes; the second is hashtext(schema), so two
// schemas migrate in parallel while replicas of one schema wait for each other.
export const LOCK_CLASS = 0x4d454d; // "MEM"

/** Takes the schema's transaction-scoped advisory lock (released by COMMIT/ROLLBACK). */
export async function lockSchema(client: pg.PoolClient, schema: string): Promise<void> {
  await client.query("SELECT pg_advisory_xact_lock($1, hashtext($2))", [LOCK_CLASS, schema]);
}

/**
 * Brings `schema` up to {@link SCHEMA_VERSION}. Many processes may call this at once: all but
 * one wait on the advisory lock, then find the work done. Each migration and its record commit
 * together, so a crash never leaves a half-applied version. Returns the versions applied.
 * `migrations` is for tests (a schema at an older version).
 */
export async function runMigrations(
  client: pg.PoolClient,
  schema: string,
  quoted: string,
  migrations: readonly Migration[] = MIGRATIONS,
): Promise<number[]> {
  const applied: number[] = [];
  await client.query("BEGIN");
  try {
    await lockSchema(client, schema);
    const exists = await client.query("SELECT to_regnamespace($1) IS NOT NULL AS present", [
      quoted,
    ]);
    // CREATE SCHEMA IF NOT EXISTS still needs the CREATE privilege; skip it when not needed.
    if (!exists.rows[0].present) await client.query(`CREATE SCHEMA ${quoted}`);
    // Only created when missing: an up-to-date schema opens without a single write, so a
    // read-only session (a standby, default_transaction_read_only) can still read it.
    const table = await client.query("SELECT to_regclass($1) IS NOT NULL AS present", [
      `${quoted}.memory_migrations`,
    ]);
    if (!table.rows[0].present)
      await client.query(
        `CREATE TABLE IF NOT EXISTS ${quoted}.memory_migrations (
         version integer PRIMARY KEY,
         name text NOT NULL,
         applied_at timestamptz NOT NULL DEFAULT now()
       )`,
      );
    const done = await client.query(`SELECT version FROM ${quoted}.memory_migrations`);
    const versions = new Set(done.rows.map((row: { version: number }) => row.version));
    for (const migration of migrations) {
      if (versions.has(migration.version)) continue;
      await client.query(migration.up(quoted));
      await migration.run?.(client, quoted);
      await client.query(
        `INSERT INTO ${quoted}.memory_migrations (version, name) VALUES ($1, $2)`,
        [migration.version, migration.name],
      );
      applied.push(migration.version);
    }
    await client.query("COMMIT");
    return applied;
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  }
}
