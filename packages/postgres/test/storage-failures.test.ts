import { MemoryError } from "@memory/api";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { createPostgresMemory } from "../src/index.js";
import { schemaRegistry, TEST_URL } from "./helpers.js";

const schemas = schemaRegistry("ro");
afterAll(() => schemas.dropAll());

async function failure(operation: () => Promise<unknown>): Promise<MemoryError> {
  try {
    await operation();
  } catch (error) {
    if (MemoryError.isInstance(error)) return error;
    throw error;
  }
  throw new Error("the operation succeeded");
}

describe("a read-only PostgreSQL session (default_transaction_read_only, as on a standby)", () => {
  it("answers reads, refuses writes and imports with STORE_NOT_WRITABLE, and healthCheck says so", async () => {
    const schema = schemas.next();
    const setup = createPostgresMemory({ connectionString: TEST_URL, schema });
    for (let i = 0; i < 3; i++) {
      await setup.store({ key: `kept-${i}`, content: `entry ${i} about lighthouses` });
    }
    await setup.close();

    const pool = new pg.Pool({
      connectionString: TEST_URL,
      options: "-c default_transaction_read_only=on",
      max: 2,
    });
    const memory = createPostgresMemory({ pool, schema });
    try {
      expect((await memory.get("kept-0"))?.content).toBe("entry 0 about lighthouses");
      expect(await memory.recall("lighthouses", { mode: "bm25" })).toHaveLength(3);

      const stored = await failure(() => memory.store({ key: "new", content: "refused" }));
      expect(stored.code).toBe("STORE_NOT_WRITABLE");
      expect(stored.details).toMatchObject({ reason: "read-only" });
      expect(stored.message).toMatch(/read-only.*primary/);

      const imported = await failure(() =>
        memory.importEntries([
          { key: "a", content: "first" },
          { key: "b", content: "second" },
        ]),
      );
      expect(imported.code).toBe("STORE_NOT_WRITABLE");
      expect(imported.details).toMatchObject({ imported: 0, rejected: 0 });
      expect(imported.message).toMatch(/stopped after 0 entries were committed/);

      const report = await memory.healthCheck();
      expect(report.ok).toBe(false);
      expect(report.storage?.writable).toBe(false);
      expect(report.storage?.reason).toMatch(/read-only/);
      expect(await memory.count()).toBe(3);
    } finally {
      await memory.close();
      await pool.end();
    }
  }, 60_000);
});
