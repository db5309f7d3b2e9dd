import { randomBytes } from "node:crypto";
import { MemoryError } from "@memory/api";
import { createTestEmbedder } from "@memory/testkit";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { createPostgresMemory, type PostgresMemory } from "../src/index.js";
import { admin, schemaRegistry, TEST_URL } from "./helpers.js";

const schemas = schemaRegistry("res");
afterAll(() => schemas.dropAll());

function tagged(): { memory: PostgresMemory; application: string } {
  const application = `memtest_${randomBytes(4).toString("hex")}`;
  const url = new URL(TEST_URL);
  url.searchParams.set("application_name", application);
  const memory = createPostgresMemory({
    connectionString: url.toString(),
    schema: schemas.next(),
    maxConnections: 3,
    embedder: createTestEmbedder(),
  });
  return { memory, application };
}

async function terminate(application: string): Promise<number> {
  // The filter runs first (OFFSET 0 keeps the subquery from being flattened), so only this
  // memory's connections are killed, never another session on the server.
  const rows = await admin<{ terminated: boolean }>(
    `SELECT pg_terminate_backend(pid) AS terminated
     FROM (SELECT pid FROM pg_stat_activity WHERE application_name = $1 AND pid <> pg_backend_pid() OFFSET 0) AS mine`,
    [application],
  );
  return rows.filter((row) => row.terminated).length;
}

/** Retries an operation a few times; every failure must be the typed BACKEND_UNAVAILABLE. */
async function eventually<T>(operation: () => Promise<T>, attempts = 5): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await operation();
    } catch (error) {
      expect(MemoryError.hasCode(error, "BACKEND_UNAVAILABLE"), String(error)).toBe(true);
      if (attempt >= attempts) throw error;
    }
  }
}

describe("postgres: connection loss", () => {
  it("fails an operation whose backend is terminated with BACKEND_UNAVAILABLE, then recovers", async () => {
    const { memory, application } = tagged();
    await memory.store({ key: "k", content: "survives the outage" });
    const locker = new pg.Client({ connectionString: TEST_URL });
    await locker.connect();
    try {
      // Hold the table so the next count() is mid-flight on the server when it is killed.
      await locker.query("BEGIN");
      await locker.query(`LOCK TABLE "${memory.schema}".memories IN ACCESS EXCLUSIVE MODE`);
      const pending = memory.count().then(
        () => undefined,
        (error: unknown) => error,
      );
      for (let i = 0; i < 500; i++) {
        const waiting = await locker.query(
          "SELECT 1 FROM pg_stat_activity WHERE application_name = $1 AND wait_event_type = 'Lock'",
          [application],
        );
        if (waiting.rowCount) break;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      expect(await terminate(application)).toBeGreaterThan(0);
      const error = await pending;
      expect(MemoryError.hasCode(error, "BACKEND_UNAVAILABLE")).toBe(true);
      expect((error as Error).message).toMatch(/unavailable during count/);
    } finally {
      await locker.query("COMMIT").catch(() => {});
      await locker.end();
    }
    expect(await eventually(() => memory.count())).toBe(1);
    expect((await eventually(() => memory.recall("outage", { mode: "hybrid" })))[0]!.key).toBe("k");
    await memory.close();
  });

  it("keeps every acknowledged write while its connections are killed again and again", async () => {
    const { memory, application } = tagged();
    await memory.init();
    let acknowledged = 0;
    for (let round = 0; round < 15; round++) {
      await terminate(application);
      try {
        await memory.store({ key: `k${round}`, content: `round ${round}` });
        acknowledged++;
      } catch (error) {
        expect(MemoryError.hasCode(error, "BACKEND_UNAVAILABLE"), String(error)).toBe(true);
      }
      await eventually(() => memory.recall(`round ${round}`, { mode: "hybrid" }));
    }
    const stored = await eventually(() => memory.count());
    expect(stored).toBeGreaterThanOrEqual(acknowledged);
    expect(stored).toBeLessThanOrEqual(15);
    const health = await eventually(() => memory.healthCheck());
    expect(health.ok).toBe(true);
    await memory.close();
  });

  it("retries the schema setup after the server was unreachable", async () => {
    const schema = schemas.next();
    const down = createPostgresMemory({
      connectionString: "postgresql://postgres@127.0.0.1:1/memory_test",
      schema,
    });
    const error = await down.store({ key: "k", content: "v" }).catch((caught) => caught);
    expect(MemoryError.hasCode(error, "BACKEND_UNAVAILABLE")).toBe(true);
    expect((error as Error).message).toMatch(/ECONNREFUSED|unavailable/);
    await down.close();
  });
});

describe("many memories on one shared pool", () => {
  it("adds one error listener per pooled client and per pool, and removes the pool's on close", async () => {
    const pool = new pg.Pool({ connectionString: TEST_URL, max: 4 });
    pool.on("error", () => {}); // the owner's own listener
    const baseline = pool.listenerCount("error");
    try {
      const schema = schemas.next();
      const memories = Array.from({ length: 100 }, () =>
        createPostgresMemory({ pool, schema, embedder: createTestEmbedder() }),
      );
      for (const memory of memories) await memory.count();
      expect(pool.listenerCount("error")).toBe(baseline + 1);
      const clients = await Promise.all(Array.from({ length: 4 }, () => pool.connect()));
      for (const client of clients) {
        // pg's own listeners (at most one) plus ours: never one per memory.
        expect(client.listenerCount("error")).toBeLessThanOrEqual(2);
        client.release();
      }
      for (const memory of memories) await memory.close();
      expect(pool.listenerCount("error")).toBe(baseline);
    } finally {
      await pool.end();
    }
  }, 120_000);
});
