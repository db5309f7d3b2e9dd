import type { UsageEvent, UsageRecord } from "@memory/api";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { createPostgresMemory } from "../src/index.js";
import type { PostgresDriver } from "../src/postgres-driver.js";
import { batch, entryRecord, openDriver, upserts, usageEvent } from "./driver-harness.js";
import { admin, schemaRegistry, TEST_URL } from "./helpers.js";

const schemas = schemaRegistry("ucas");
const opened: PostgresDriver[] = [];
afterEach(async () => {
  await Promise.allSettled(opened.splice(0).map((driver) => driver.close()));
});
afterAll(() => schemas.dropAll());

const surfacedOnce = (_: UsageRecord | undefined, events: readonly UsageEvent[]): UsageRecord => ({
  namespace: events[0]!.namespace,
  key: events[0]!.key,
  stats: { surfaced: events.length, used: 0, ignored: 0, queries: 0, days: 0 },
  recentQueries: [],
});

/**
 * A schema with entries `doomed` and `kept` in namespace "default" (session "s" for doomed),
 * and `doomed` in namespace "other", each with one usage event and a record.
 */
async function seeded() {
  const schema = schemas.next();
  const driver = await openDriver(schema);
  opened.push(driver);
  await driver.write(
    batch({
      upserts: await upserts([
        entryRecord("doomed", "old note", { sessionId: "s", at: "2024-01-01T00:00:00.000Z" }),
        entryRecord("kept", "recent note", { at: "2025-06-01T00:00:00.000Z" }),
        entryRecord("doomed", "same key elsewhere", { namespace: "other" }),
      ]),
    }),
  );
  await driver.usage.record(
    [
      usageEvent("r", "doomed"),
      usageEvent("r", "kept"),
      usageEvent("r", "doomed", { namespace: "other" }),
    ],
    surfacedOnce,
  );
  return { schema, driver };
}

/** `namespace/key` of every stored event and record. */
async function usageRows(schema: string) {
  const rows = await admin<{ what: string; entry: string }>(
    `SELECT 'event' AS what, namespace || '/' || key AS entry FROM "${schema}".usage_events
     UNION ALL SELECT 'record', namespace || '/' || key FROM "${schema}".usage_records
     ORDER BY 1, 2`,
  );
  return rows.map((row) => `${row.what} ${row.entry}`);
}

const ALL = [
  "event default/doomed",
  "event default/kept",
  "event other/doomed",
  "record default/doomed",
  "record default/kept",
  "record other/doomed",
];
const WITHOUT_DEFAULT_DOOMED = ALL.filter((row) => !row.endsWith(" default/doomed"));

describe("postgres: deleting an entry removes its usage, on every path", () => {
  it("a write batch's delete", async () => {
    const { schema, driver } = await seeded();
    expect(await usageRows(schema)).toEqual(ALL);
    await driver.write(batch({ deletes: [{ namespace: "default", key: "doomed" }] }));
    expect(await usageRows(schema)).toEqual(WITHOUT_DEFAULT_DOOMED);
  });

  it("deleteWhere (hygiene's age rule)", async () => {
    const { schema, driver } = await seeded();
    const report = await driver.deleteWhere({
      namespace: "default",
      sessionId: undefined,
      categories: undefined,
      olderThan: "2025-01-01T00:00:00.000Z",
      superseded: undefined,
      keepNewest: 0,
      dryRun: false,
    });
    expect(report.deleted).toBe(1);
    expect(await usageRows(schema)).toEqual(WITHOUT_DEFAULT_DOOMED);
  });

  it("the facade's forget, deleteEntries, purgeSession and purgeNamespace", async () => {
    const paths: [string, (memory: ReturnType<typeof createPostgresMemory>) => Promise<unknown>][] =
      [
        ["forget", (memory) => memory.forget("doomed")],
        ["deleteEntries", (memory) => memory.deleteEntries({ olderThan: "2025-01-01" })],
        ["purgeSession", (memory) => memory.purgeSession("s")],
      ];
    for (const [name, remove] of paths) {
      const { schema } = await seeded();
      const memory = createPostgresMemory({
        connectionString: TEST_URL,
        schema,
        maxConnections: 2,
      });
      try {
        await remove(memory);
        expect(await usageRows(schema), name).toEqual(WITHOUT_DEFAULT_DOOMED);
      } finally {
        await memory.close();
      }
    }
    const { schema } = await seeded();
    const memory = createPostgresMemory({ connectionString: TEST_URL, schema, maxConnections: 2 });
    try {
      expect(await memory.purgeNamespace("default")).toBe(2);
      expect(await usageRows(schema)).toEqual(["event other/doomed", "record other/doomed"]);
    } finally {
      await memory.close();
    }
  });

  it("keeps a recall's events of keys that never were entries until pruned", async () => {
    const { schema, driver } = await seeded();
    await driver.usage.record([usageEvent("r2", "never-stored")], surfacedOnce);
    await driver.write(batch({ deletes: [{ namespace: "default", key: "kept" }] }));
    expect(await usageRows(schema)).toContain("event default/never-stored");
    expect(await usageRows(schema)).not.toContain("record default/never-stored");
  });
});
