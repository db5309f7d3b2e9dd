import { indexedTerms } from "@memory/core";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { createPostgresMemory, MIGRATIONS, SCHEMA_VERSION } from "../src/index.js";
import { runMigrations } from "../src/migrations/index.js";
import { admin, schemaRegistry, TEST_URL } from "./helpers.js";

const schemas = schemaRegistry("rel");
afterAll(() => schemas.dropAll());

describe("postgres: migration 8 (relations)", () => {
  it("upgrades a version 6 schema: rows kept, relations stored and cascaded from then on", async () => {
    const schema = schemas.next();
    const quoted = `"${schema}"`;
    const client = new pg.Client({ connectionString: TEST_URL });
    await client.connect();
    try {
      const pool = { query: client.query.bind(client) } as unknown as pg.PoolClient;
      const before = MIGRATIONS.filter((migration) => migration.version <= 6);
      expect(await runMigrations(pool, schema, quoted, before)).toEqual([1, 2, 3, 4, 5, 6]);
      // Rows as version 6 holds them (no relations table yet).
      const rows: [string, string][] = [
        ["cause", "The disk filled up"],
        ["effect", "The nightly backup failed"],
      ];
      for (const [key, content] of rows) {
        await client.query(
          `INSERT INTO ${quoted}.memories (id, namespace, key, content, category, created_at, updated_at, content_hash, search_terms)
           VALUES ($1, 'default', $1, $2, 'core', now(), now(), 'hash', $3)`,
          [key, content, indexedTerms(key, content)],
        );
      }
      expect(
        (
          await client.query("SELECT to_regclass($1) IS NULL AS absent", [
            `${quoted}.memory_relations`,
          ])
        ).rows[0].absent,
      ).toBe(true);
    } finally {
      await client.end();
    }
    const memory = createPostgresMemory({ connectionString: TEST_URL, schema });
    try {
      expect((await memory.healthCheck()).details.schemaVersion).toBe(SCHEMA_VERSION);
      expect(await memory.count()).toBe(2);
      expect((await memory.get("cause"))!.content).toBe("The disk filled up");
      await memory.relate("cause", "effect", "causes", { weight: 0.8, metadata: { seen: 1 } });
      expect(await memory.relations("effect", { direction: "in" })).toMatchObject([
        { from: "cause", to: "effect", type: "causes", weight: 0.8, metadata: { seen: 1 } },
      ]);
      await memory.forget("cause");
      expect(await memory.relations("effect")).toEqual([]);
      const left = await admin<{ n: string }>(
        `SELECT count(*) AS n FROM ${quoted}.memory_relations`,
      );
      expect(left[0]!.n).toBe("0");
    } finally {
      await memory.close();
    }
  });
});
