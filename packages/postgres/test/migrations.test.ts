import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { MemoryError } from "@memory/api";
import { countIndexedTerms, indexedTerms } from "@memory/core";
import { createTestEmbedder } from "@memory/testkit";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { createPostgresMemory, MIGRATIONS, SCHEMA_VERSION } from "../src/index.js";
import { runMigrations } from "../src/migrations/index.js";
import { admin, schemaRegistry, TEST_URL } from "./helpers.js";

const run = promisify(execFile);
const schemas = schemaRegistry("mig");
afterAll(() => schemas.dropAll());

const child = fileURLToPath(new URL("./fixtures/migrate-child.mjs", import.meta.url));
const dist = fileURLToPath(new URL("../dist/index.mjs", import.meta.url));

describe("postgres: migrations", () => {
  it("ends with one correct schema when 4 processes migrate at once", async () => {
    expect(existsSync(dist), "build first: npx tsdown").toBe(true);
    const schema = schemas.next();
    const outputs = await Promise.all(
      [1, 2, 3, 4].map((n) =>
        run(process.execPath, [child, TEST_URL, schema, String(n)], { timeout: 60_000 }),
      ),
    );
    for (const { stdout } of outputs)
      expect(JSON.parse(stdout)).toEqual({ ok: true, vector: "ok" });
    const versions = await admin<{ version: number }>(
      `SELECT version FROM "${schema}".memory_migrations ORDER BY version`,
    );
    expect(versions.map((row) => row.version)).toEqual(
      MIGRATIONS.map((migration) => migration.version),
    );
    const meta = await admin<{ key: string; value: string }>(
      `SELECT key, value FROM "${schema}".memory_meta ORDER BY key`,
    );
    expect(meta).toEqual([
      { key: "embedding_dimensions", value: "8" },
      { key: "embedding_fingerprint", value: "child:fixed:8" },
    ]);
    const tables = await admin<{ table_name: string }>(
      "SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY table_name",
      [schema],
    );
    expect(tables.map((row) => row.table_name)).toEqual([
      "job_state",
      "leases",
      "memories",
      "memory_meta",
      "memory_migrations",
      "memory_relations",
      "memory_vectors",
      "namespace_stats",
      "usage_events",
      "usage_records",
    ]);
    const indexes = await admin<{ indexname: string }>(
      "SELECT indexname FROM pg_indexes WHERE schemaname = $1",
      [schema],
    );
    expect(indexes.map((row) => row.indexname)).toEqual(
      expect.arrayContaining(["memories_search", "memory_vectors_hnsw", "memories_category"]),
    );
    const rows = await admin<{ n: string; v: string }>(
      `SELECT (SELECT count(*) FROM "${schema}".memories) AS n, (SELECT count(*) FROM "${schema}".memory_vectors) AS v`,
    );
    expect(rows[0]).toEqual({ n: "4", v: "4" });
  });

  it("is idempotent: reopening an up-to-date schema applies nothing and keeps the data", async () => {
    const schema = schemas.next();
    const first = createPostgresMemory({ connectionString: TEST_URL, schema });
    await first.store({ key: "k", content: "kept" });
    await first.close();
    const second = createPostgresMemory({ connectionString: TEST_URL, schema });
    expect((await second.get("k"))!.content).toBe("kept");
    expect((await second.healthCheck()).details.schemaVersion).toBe(SCHEMA_VERSION);
    await second.close();
    const versions = await admin(`SELECT version FROM "${schema}".memory_migrations`);
    expect(versions).toHaveLength(MIGRATIONS.length);
  });

  it("upgrades a version 1 schema: every row kept, search terms filled, statistics built", async () => {
    expect(SCHEMA_VERSION).toBe(10);
    const schema = schemas.next();
    const quoted = `"${schema}"`;
    // Version 1 exactly as the previous release left it: its migration, then rows written
    // the way it wrote them (tsvector from to_tsvector over its own token text).
    const client = new pg.Client({ connectionString: TEST_URL });
    await client.connect();
    const rows = Array.from({ length: 2600 }, (_, i) => ({
      id: `id-${i}`,
      namespace: i % 3 === 0 ? "other" : "default",
      key: `key-${i}`,
      content:
        i % 100 === 7
          ? "私は記憶力が良いです Café crème"
          : `note ${i} about meetings and gardening${i % 2 ? " in the spring" : ""}`,
      created: new Date(Date.UTC(2024, 0, 1, 0, 0, i)),
    }));
    try {
      const pool = { query: client.query.bind(client) } as unknown as pg.PoolClient;
      expect(await runMigrations(pool, schema, quoted, MIGRATIONS.slice(0, 1))).toEqual([1]);
      await client.query(
        `INSERT INTO ${quoted}.memories (id, namespace, key, content, category, session_id,
           importance, superseded_by, created_at, updated_at, content_hash, search)
         SELECT r.id, r.namespace, r.key, r.content, 'core', NULL, 0.5, NULL, r.created, r.created,
           'hash', setweight(to_tsvector('simple', lower(r.key || ' ' || r.content)), 'A')
         FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::timestamptz[])
           AS r(id, namespace, key, content, created)`,
        [
          rows.map((row) => row.id),
          rows.map((row) => row.namespace),
          rows.map((row) => row.key),
          rows.map((row) => row.content),
          rows.map((row) => row.created),
        ],
      );
    } finally {
      await client.end();
    }
    const memory = createPostgresMemory({ connectionString: TEST_URL, schema });
    try {
      expect((await memory.healthCheck()).details.schemaVersion).toBe(SCHEMA_VERSION);
      const versions = await admin<{ version: number }>(
        `SELECT version FROM ${quoted}.memory_migrations ORDER BY version`,
      );
      expect(versions.map((row) => row.version)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
      // Schema 7: category filters (collections: false) are answered from an index.
      const indexes = await admin<{ indexname: string }>(
        "SELECT indexname FROM pg_indexes WHERE schemaname = $1 AND indexname = 'memories_category'",
        [schema],
      );
      expect(indexes).toHaveLength(1);
      // Schema 10: the search index's pending list is bounded (a search reads all of it).
      const search = await admin<{ options: string[] | null }>(
        "SELECT reloptions AS options FROM pg_class WHERE oid = to_regclass($1)",
        [`${quoted}.memories_search`],
      );
      expect(search[0]?.options).toEqual(["gin_pending_list_limit=128"]);
      const stored = await admin<{
        id: string;
        namespace: string;
        key: string;
        content: string;
        created_at: Date;
        importance: number;
        search_terms: string;
        term_count: number;
        lexemes: string[];
      }>(
        `SELECT id, namespace, key, content, created_at, importance, search_terms, term_count,
           tsvector_to_array(search) AS lexemes FROM ${quoted}.memories ORDER BY created_at`,
      );
      expect(stored).toHaveLength(rows.length);
      stored.forEach((row, i) => {
        const original = rows[i]!;
        expect(row).toMatchObject({
          id: original.id,
          namespace: original.namespace,
          key: original.key,
          content: original.content,
          importance: 0.5,
        });
        expect(row.created_at.toISOString()).toBe(original.created.toISOString());
        expect(row.search_terms).toBe(indexedTerms(original.key, original.content));
        expect(row.term_count).toBe(countIndexedTerms(row.search_terms));
        expect(new Set(row.lexemes)).toEqual(new Set(row.search_terms.split(" ")));
      });
      const stats = await admin(
        `SELECT namespace, documents::int, terms::int FROM ${quoted}.namespace_stats ORDER BY namespace`,
      );
      const total = (namespace: string) => stored.filter((row) => row.namespace === namespace);
      expect(stats).toEqual(
        ["default", "other"].map((namespace) => ({
          namespace,
          documents: total(namespace).length,
          terms: total(namespace).reduce((sum, row) => sum + row.term_count, 0),
        })),
      );
      // Search works on the migrated rows, with the new analyzer (stems, CJK bigrams, folding).
      const [meeting] = await memory.recall("meeting key-43", { mode: "bm25", minScore: 0 });
      expect(meeting!.key).toBe("key-43");
      expect((await memory.recall("記憶 cafe", { mode: "bm25", limit: 50 })).length).toBe(
        stored.filter((row) => row.namespace === "default" && row.content.includes("記憶")).length,
      );
      // And writes after the upgrade keep the statistics.
      await memory.store({ key: "key-1", content: "replaced", namespace: "default" });
      const [after] = await admin<{ terms: number }>(
        `SELECT terms::int FROM ${quoted}.namespace_stats WHERE namespace = 'default'`,
      );
      const sum = await admin<{ terms: number }>(
        `SELECT sum(term_count)::int AS terms FROM ${quoted}.memories WHERE namespace = 'default'`,
      );
      expect(after!.terms).toBe(sum[0]!.terms);
    } finally {
      await memory.close();
    }
  });

  it("does no I/O in the constructor: a bad URL fails only when used, with BACKEND_UNAVAILABLE", async () => {
    const memory = createPostgresMemory({
      connectionString: "postgresql://postgres@127.0.0.1:1/none",
      schema: "x",
    });
    const error = await memory.count().catch((caught) => caught);
    expect(MemoryError.hasCode(error, "BACKEND_UNAVAILABLE")).toBe(true);
    expect((error as Error).message).toMatch(/unavailable/);
    const health = await memory.healthCheck();
    expect(health.ok).toBe(false);
    await memory.close();
  });

  it("names the exact CREATE EXTENSION statement when the role may not create pgvector", async () => {
    const suffix = schemas.next().slice(-10);
    const database = `memory_noext_${suffix}`;
    const role = `memory_user_${suffix}`;
    await admin(`CREATE ROLE ${role} LOGIN`);
    await admin(`CREATE DATABASE ${database} OWNER ${role}`);
    try {
      const url = new URL(TEST_URL);
      url.username = role;
      url.pathname = `/${database}`;
      const memory = createPostgresMemory({
        connectionString: url.toString(),
        schema: "app",
        embedder: createTestEmbedder(),
      });
      const error = await memory.count().catch((caught) => caught);
      expect(MemoryError.hasCode(error, "CONFIG")).toBe(true);
      expect((error as Error).message).toContain("CREATE EXTENSION IF NOT EXISTS vector;");
      expect((error as Error).message).toContain(database);
      await memory.close();
      // Without an embedder the same role works, keyword-only.
      const keywordOnly = createPostgresMemory({ connectionString: url.toString(), schema: "app" });
      await keywordOnly.store({ key: "k", content: "keyword only works" });
      expect((await keywordOnly.recall("keyword"))[0]!.explain!.degraded).toMatch(/provider/);
      await keywordOnly.close();
    } finally {
      await admin(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
      await admin(`DROP ROLE IF EXISTS ${role}`);
    }
  });

  it("never ends an injected pool", async () => {
    const pool = new pg.Pool({ connectionString: TEST_URL, max: 2 });
    const memory = createPostgresMemory({ pool, schema: schemas.next() });
    await memory.store({ key: "k", content: "v" });
    await memory.close();
    expect((await pool.query("SELECT 1 AS one")).rows[0].one).toBe(1);
    await pool.end();
  });
});
