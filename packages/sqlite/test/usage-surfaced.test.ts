import type { UsageEvent } from "@memory/api";
import { applyUsageEvents } from "@memory/core";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { createSqliteMemory, type SqliteDriver } from "../src/index.js";
import { FOLD_AFTER_ROWS } from "../src/usage/surfaced-rows.js";
import { tempDbPath } from "./helpers.js";
import { batch, entryRecord, openDriver, storeEntries, usageEvent } from "./usage-helpers.js";

const drivers: SqliteDriver[] = [];
afterEach(async () => {
  for (const driver of drivers.splice(0)) await driver.close();
});

async function storeWith(keys: string[], path?: string) {
  const result = await openDriver(path);
  drivers.push(result.driver);
  await storeEntries(
    result.driver,
    result.embedder,
    keys.map((key) => entryRecord(key, `The note called ${key}`)),
  );
  return result;
}

/** One recall's surfaced events at `at`. */
const surfaced = (recallId: string, keys: string[], at = "2026-03-01T12:00:00.000Z") =>
  keys.map((key) => usageEvent(recallId, key, "surfaced", { at }));

/** What the store's own tables hold, read beside the driver. */
function tables(path: string) {
  const db = new Database(path, { readonly: true });
  try {
    return {
      surfacedRows: db.prepare("SELECT count(*) FROM usage_surfaced").pluck().get() as number,
      eventRows: db.prepare("SELECT count(*) FROM usage_events").pluck().get() as number,
      records: db.prepare("SELECT count(*) FROM usage_records").pluck().get() as number,
    };
  } finally {
    db.close();
  }
}

describe("sqlite: a recall's surfaced events in one row (schema v12)", () => {
  it("writes one row per recall and gives the events and records record() would give", async () => {
    const keys = ["a", "b", "c"];
    const eager = await storeWith(keys);
    const { driver, path } = await storeWith(keys);
    const events: UsageEvent[] = [
      ...surfaced("r1", ["a", "b"]),
      ...surfaced("r2", ["b", "c", "ghost"], "2026-03-01T13:00:00.000Z"),
    ];
    await driver.usage!.surface!(events);
    await eager.driver.usage!.record(events, applyUsageEvents);

    expect(tables(path)).toEqual({ surfacedRows: 2, eventRows: 0, records: 0 });
    expect(await driver.usage!.events("default", "r2")).toEqual(
      await eager.driver.usage!.events("default", "r2"),
    );
    expect(await driver.usage!.countEvents()).toBe(5);
    // A read applies the rows first: the same records, the ghost key's included (none).
    expect(await driver.usage!.read("default", ["a", "b", "c", "ghost"])).toEqual(
      await eager.driver.usage!.read("default", ["a", "b", "c", "ghost"]),
    );
    expect((await driver.usage!.read("default", ["b"]))[0]!.stats).toMatchObject({
      surfaced: 2,
      lastSurfacedAt: "2026-03-01T13:00:00.000Z",
    });
    expect(tables(path).records).toBe(3);
  });

  it("applies waiting rows in its own write once they reach the bound, without a read", async () => {
    const { driver, path } = await storeWith(["a"]);
    for (let i = 0; i < FOLD_AFTER_ROWS - 1; i++)
      await driver.usage!.surface!(surfaced(`r${i}`, ["a"]));
    expect(tables(path).records).toBe(0);
    await driver.usage!.surface!(surfaced("last", ["a"]));
    const db = new Database(path, { readonly: true });
    try {
      expect(db.prepare("SELECT surfaced FROM usage_records").pluck().get()).toBe(FOLD_AFTER_ROWS);
    } finally {
      db.close();
    }
  });

  it("shows another connection's waiting rows in this one's reads and scans", async () => {
    const first = await storeWith(["a", "b"]);
    const second = await openDriver(first.path);
    drivers.push(second.driver);
    await first.driver.usage!.surface!(surfaced("r1", ["a", "b"]));
    expect((await second.driver.usage!.read("default", ["a"]))[0]!.stats.surfaced).toBe(1);
    await first.driver.usage!.surface!(surfaced("r2", ["b"]));
    const scanned = await second.driver.usage!.scan("default", undefined, 10);
    expect(scanned.map((record) => [record.key, record.stats.surfaced])).toEqual([
      ["a", 1],
      ["b", 2],
    ]);
  });

  it("forgets a deleted entry's key in earlier rows: a key stored again starts from zero", async () => {
    const { driver, embedder } = await storeWith(["a", "gone"]);
    await driver.usage!.surface!(surfaced("r1", ["a", "gone"]));
    await driver.write(batch({ deletes: [{ namespace: "default", key: "gone" }] }));
    await storeEntries(driver, embedder, [entryRecord("gone", "Stored again")]);
    expect((await driver.usage!.events("default", "r1")).map((event) => event.key)).toEqual(["a"]);
    expect(await driver.usage!.countEvents()).toBe(1);
    const [a, gone] = await driver.usage!.read("default", ["a", "gone"]);
    expect(a!.stats.surfaced).toBe(1);
    expect(gone).toBeUndefined();
    // Surfaced after it was stored again, it counts.
    await driver.usage!.surface!(surfaced("r2", ["gone"]));
    expect((await driver.usage!.read("default", ["gone"]))[0]!.stats.surfaced).toBe(1);
  });

  it("lets imported records replace what waits, as they replace what was counted", async () => {
    const { driver } = await storeWith(["a"]);
    await driver.usage!.surface!(surfaced("r1", ["a"]));
    const imported = {
      namespace: "default",
      key: "a",
      stats: { surfaced: 7, used: 2, ignored: 0, queries: 1, days: 1 },
      recentQueries: ["sha256:abc"],
    };
    await driver.usage!.put([imported]);
    expect((await driver.usage!.read("default", ["a"]))[0]).toEqual(imported);
  });

  it("prunes rows by time and by count, oldest first, and keeps their statistics", async () => {
    const { driver, path } = await storeWith(["a", "b"]);
    await driver.usage!.surface!(surfaced("old", ["a", "b"], "2026-01-01T00:00:00.000Z"));
    await driver.usage!.record(
      [usageEvent("old", "a", "used", { at: "2026-01-01T00:01:00.000Z" })],
      applyUsageEvents,
    );
    await driver.usage!.surface!(surfaced("mid", ["a"], "2026-02-01T00:00:00.000Z"));
    await driver.usage!.surface!(surfaced("new", ["a", "b"], "2026-03-01T00:00:00.000Z"));

    expect(await driver.usage!.prune("2026-01-15T00:00:00.000Z", 100)).toBe(3);
    expect(await driver.usage!.events("default", "old")).toEqual([]);
    expect(await driver.usage!.prune("2000-01-01T00:00:00.000Z", 2)).toBe(1);
    expect(await driver.usage!.events("default", "mid")).toEqual([]);
    expect(await driver.usage!.events("default", "new")).toHaveLength(2);
    expect(tables(path)).toMatchObject({ surfacedRows: 1, eventRows: 0 });
    const [a, b] = await driver.usage!.read("default", ["a", "b"]);
    expect(a!.stats).toMatchObject({ surfaced: 3, used: 1 });
    expect(b!.stats.surfaced).toBe(2);
    expect(await driver.usage!.prune("2000-01-01T00:00:00.000Z", 0)).toBe(2);
    expect(await driver.usage!.countEvents()).toBe(0);
  });

  it("applies waiting rows to what a read-only store's reads return, without writing", async () => {
    const path = tempDbPath();
    const writer = createSqliteMemory({ path, logger: () => {} });
    await writer.store({ key: "coffee", content: "The user drinks coffee every morning" });
    await writer.store({ key: "tea", content: "The user drinks green tea" });
    const shown = await writer.recall("what does the user drink", { minScore: 0 });
    expect(shown.map((entry) => entry.key).sort()).toEqual(["coffee", "tea"]);
    await writer.close();
    expect(tables(path)).toMatchObject({ surfacedRows: 1, records: 0 });

    const db = new Database(path, { readonly: true });
    const reader = createSqliteMemory({ database: db, logger: () => {} });
    try {
      const report = await reader.usage({ keys: ["coffee", "tea"] });
      expect(report.entries.map((entry) => entry.stats.surfaced)).toEqual([1, 1]);
      await expect(reader.store({ key: "milk", content: "Milk" })).rejects.toThrow(/read-only/);
    } finally {
      await reader.close();
      db.close();
    }
    expect(tables(path)).toMatchObject({ surfacedRows: 1, records: 0 });
  });

  it("takes surfaced events only, and writes nothing when given another kind", async () => {
    const { driver, path } = await storeWith(["a"]);
    await expect(
      driver.usage!.surface!([...surfaced("r1", ["a"]), usageEvent("r1", "a", "used")]),
    ).rejects.toThrow(/surfaced events only/);
    expect(tables(path)).toEqual({ surfacedRows: 0, eventRows: 0, records: 0 });
  });
});
