import { indexedTerms } from "@memory/core";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { MIGRATIONS, SCHEMA_VERSION } from "../src/index.js";
import { runMigrations } from "../src/migrations/index.js";
import type { PostgresDriver } from "../src/postgres-driver.js";
import { batch, openDriver, usageEvent } from "./driver-harness.js";
import { admin, schemaRegistry, TEST_URL } from "./helpers.js";

const schemas = schemaRegistry("umig");
afterAll(() => schemas.dropAll());

describe("postgres: migration 9 (usage)", () => {
  it("upgrades a version 8 schema: rows kept unmarked, marks and usage work, deletes cascade", async () => {
    const schema = schemas.next();
    const quoted = `"${schema}"`;
    const client = new pg.Client({ connectionString: TEST_URL });
    await client.connect();
    try {
      const pool = { query: client.query.bind(client) } as unknown as pg.PoolClient;
      const before = MIGRATIONS.filter((migration) => migration.version <= 8);
      expect(await runMigrations(pool, schema, quoted, before)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
      // Rows and an edge as version 8 holds them (no mark columns, no usage tables).
      for (const [key, content] of [
        ["cause", "The disk filled up"],
        ["effect", "The nightly backup failed"],
      ]) {
        await client.query(
          `INSERT INTO ${quoted}.memories (id, namespace, key, content, category, created_at, updated_at, content_hash, search_terms)
           VALUES ($1, 'default', $1, $2, 'core', '2025-01-01', '2025-01-01', 'hash', $3)`,
          [key, content, indexedTerms(key!, content!)],
        );
      }
      await client.query(
        `INSERT INTO ${quoted}.memory_relations VALUES ('default', 'cause', 'effect', 'causes', 1, NULL, now(), now())`,
      );
    } finally {
      await client.end();
    }
    let driver: PostgresDriver | undefined;
    try {
      driver = await openDriver(schema);
      expect((await driver.health()).details).toMatchObject({
        schemaVersion: SCHEMA_VERSION,
        usageEvents: 0,
      });
      const [cause, effect] = await driver.read([
        { namespace: "default", key: "cause" },
        { namespace: "default", key: "effect" },
      ]);
      expect(cause).toMatchObject({
        content: "The disk filled up",
        updatedAt: "2025-01-01T00:00:00.000Z",
      });
      expect(cause).not.toHaveProperty("pinned");
      expect(effect).not.toHaveProperty("snoozedUntil");
      const marked = await driver.write(
        batch({ marks: [{ namespace: "default", key: "cause", pinned: true }] }),
      );
      expect(marked.marked![0]!.pinned).toBe(true);
      await driver.usage.record(
        [usageEvent("r", "cause"), usageEvent("r", "effect")],
        (_, events) => ({
          namespace: "default",
          key: events[0]!.key,
          stats: { surfaced: 1, used: 0, ignored: 0, queries: 0, days: 0 },
          recentQueries: [],
        }),
      );
      await driver.write(batch({ deletes: [{ namespace: "default", key: "cause" }] }));
      const left = await admin<{ events: string; records: string; edges: string }>(
        `SELECT (SELECT count(*) FROM ${quoted}.usage_events) AS events,
           (SELECT count(*) FROM ${quoted}.usage_records) AS records,
           (SELECT count(*) FROM ${quoted}.memory_relations) AS edges`,
      );
      expect(left[0]).toEqual({ events: "1", records: "1", edges: "0" });
    } finally {
      await driver?.close();
    }
  });
});
