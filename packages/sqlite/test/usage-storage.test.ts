import type { UsageRecord } from "@memory/api";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import type { SqliteDriver } from "../src/index.js";
import { SCHEMA_VERSION } from "../src/migrations/schema.js";
import {
  batch,
  countInto,
  entryRecord,
  openDriver,
  storeEntries,
  usageEvent,
} from "./usage-helpers.js";

const drivers: SqliteDriver[] = [];
afterEach(async () => {
  for (const driver of drivers.splice(0)) await driver.close();
});

async function storeWith(keys: string[], namespace = "default") {
  const result = await openDriver();
  drivers.push(result.driver);
  await storeEntries(
    result.driver,
    result.embedder,
    keys.map((key) => entryRecord(key, `The note called ${key}`, { namespace })),
  );
  return result;
}

const record = (key: string, surfaced: number, namespace = "default"): UsageRecord => ({
  namespace,
  key,
  stats: { surfaced, used: 0, ignored: 0, queries: 0, days: 0 },
  recentQueries: [],
});

describe("sqlite: usage events and records", () => {
  it("records a recall's events in order and each entry's record through update, in one step", async () => {
    const { driver } = await storeWith(["a", "b"]);
    await driver.usage!.record(
      [usageEvent("r1", "a", "surfaced"), usageEvent("r1", "b", "surfaced", { query: undefined })],
      countInto,
    );
    const used = usageEvent("r1", "a", "used", { at: "2026-03-02T08:00:00.000Z" });
    const calls: unknown[] = [];
    await driver.usage!.record([used, usageEvent("r1", "b", "ignored")], (current, events) => {
      calls.push({ current: current?.stats.surfaced, events: events.map((e) => e.kind) });
      return countInto(current, events);
    });
    expect(calls).toEqual([
      { current: 1, events: ["used"] },
      { current: 1, events: ["ignored"] },
    ]);
    expect(await driver.usage!.events("default", "r1")).toEqual([
      usageEvent("r1", "a", "surfaced"),
      (() => {
        const { query: _, ...withoutQuery } = usageEvent("r1", "b", "surfaced");
        return withoutQuery;
      })(),
      used,
      usageEvent("r1", "b", "ignored"),
    ]);
    const [a, b, absent] = await driver.usage!.read("default", ["a", "b", "absent"]);
    expect(a).toEqual({
      namespace: "default",
      key: "a",
      stats: {
        surfaced: 1,
        used: 1,
        ignored: 0,
        queries: 1,
        days: 0,
        lastSurfacedAt: "2026-03-01T12:00:00.000Z",
        lastUsedAt: "2026-03-02T08:00:00.000Z",
      },
      lastUsedDay: "2026-03-02",
      recentQueries: ["sha256:abc"],
    });
    expect(b!.stats).toMatchObject({ surfaced: 1, ignored: 1 });
    expect(b).not.toHaveProperty("lastUsedDay");
    expect(absent).toBeUndefined();
    expect(await driver.usage!.countEvents()).toBe(4);
  });

  it("keeps namespaces apart: events and records of one are not another's", async () => {
    const { driver, embedder } = await storeWith(["a"]);
    await storeEntries(driver, embedder, [entryRecord("a", "Another a", { namespace: "work" })]);
    await driver.usage!.record(
      [usageEvent("r1", "a", "surfaced"), usageEvent("r1", "a", "surfaced", { namespace: "work" })],
      countInto,
    );
    await driver.usage!.record([usageEvent("r1", "a", "used", { namespace: "work" })], countInto);
    expect((await driver.usage!.events("work", "r1")).map((e) => e.kind)).toEqual([
      "surfaced",
      "used",
    ]);
    expect((await driver.usage!.read("default", ["a"]))[0]!.stats.used).toBe(0);
    expect((await driver.usage!.read("work", ["a"]))[0]!.stats.used).toBe(1);
  });

  it("appends events of keys that are no entries, and stores no record for them", async () => {
    const { driver } = await storeWith(["a"]);
    let updates = 0;
    await driver.usage!.record([usageEvent("r1", "ghost", "surfaced")], (current, events) => {
      updates++;
      return countInto(current, events);
    });
    expect(updates).toBe(0);
    expect(await driver.usage!.events("default", "r1")).toHaveLength(1);
    expect(await driver.usage!.read("default", ["ghost"])).toEqual([undefined]);
    await driver.usage!.put([record("ghost", 3)]);
    expect(await driver.usage!.read("default", ["ghost"])).toEqual([undefined]);
  });

  it("rolls back the events when update throws", async () => {
    const { driver } = await storeWith(["a"]);
    await expect(
      driver.usage!.record([usageEvent("r1", "a", "surfaced")], () => {
        throw new Error("the facade failed");
      }),
    ).rejects.toThrow(/the facade failed/);
    expect(await driver.usage!.countEvents()).toBe(0);
  });

  it("puts records as given and scans them by (namespace, key) in pages", async () => {
    const { driver, embedder } = await storeWith(["b", "a", "c"]);
    await storeEntries(driver, embedder, [entryRecord("a", "Work a", { namespace: "work" })]);
    await driver.usage!.put([
      record("b", 2),
      record("a", 1),
      record("c", 3),
      record("a", 4, "work"),
    ]);
    await driver.usage!.put([{ ...record("c", 5), lastUsedDay: "2026-03-01" }]);
    const page1 = await driver.usage!.scan(undefined, undefined, 2);
    expect(page1.map((r) => [r.namespace, r.key])).toEqual([
      ["default", "a"],
      ["default", "b"],
    ]);
    const page2 = await driver.usage!.scan(undefined, page1.at(-1), 2);
    expect(page2.map((r) => [r.namespace, r.key, r.stats.surfaced])).toEqual([
      ["default", "c", 5],
      ["work", "a", 4],
    ]);
    expect(page2[0]!.lastUsedDay).toBe("2026-03-01");
    expect(await driver.usage!.scan(undefined, page2.at(-1), 2)).toEqual([]);
    expect((await driver.usage!.scan("work", undefined, 10)).map((r) => r.key)).toEqual(["a"]);
    expect(
      (await driver.usage!.scan("default", { namespace: "default", key: "a" }, 10)).map(
        (r) => r.key,
      ),
    ).toEqual(["b", "c"]);
  });

  it("prunes events before a time, then the oldest beyond keep, and keeps the records", async () => {
    const { driver } = await storeWith(["a"]);
    const at = (day: number) => `2026-03-0${day}T00:00:00.000Z`;
    await driver.usage!.record(
      [1, 2, 3, 4, 5].map((day) => usageEvent(`r${day}`, "a", "surfaced", { at: at(day) })),
      countInto,
    );
    expect(await driver.usage!.prune(at(2), 1000)).toBe(1);
    expect(await driver.usage!.prune(at(1), 2)).toBe(2);
    expect(await driver.usage!.countEvents()).toBe(2);
    expect(await driver.usage!.events("default", "r4")).toHaveLength(1);
    expect(await driver.usage!.events("default", "r3")).toEqual([]);
    expect(await driver.usage!.prune(at(1), 0)).toBe(2);
    expect((await driver.usage!.read("default", ["a"]))[0]!.stats.surfaced).toBe(5);
  });

  it("reports the event count in the health details", async () => {
    const { driver } = await storeWith(["a"]);
    await driver.usage!.record([usageEvent("r1", "a", "surfaced")], countInto);
    expect((await driver.health()).details).toMatchObject({
      usageEvents: 1,
      schemaVersion: SCHEMA_VERSION,
    });
  });
});

describe("sqlite: deleting an entry removes its usage, on every path", () => {
  async function withUsage() {
    const result = await storeWith(["gone", "kept"]);
    await result.driver.usage!.record(
      [usageEvent("r1", "gone", "surfaced"), usageEvent("r1", "kept", "surfaced")],
      countInto,
    );
    return result;
  }
  async function expectOnlyKept(driver: SqliteDriver) {
    expect((await driver.usage!.events("default", "r1")).map((e) => e.key)).toEqual(["kept"]);
    const [gone, kept] = await driver.usage!.read("default", ["gone", "kept"]);
    expect(gone).toBeUndefined();
    expect(kept!.stats.surfaced).toBe(1);
  }

  it("a write batch's delete (forget)", async () => {
    const { driver } = await withUsage();
    await driver.write(batch({ deletes: [{ namespace: "default", key: "gone" }] }));
    await expectOnlyKept(driver);
  });

  it("deleteWhere (bulk delete, hygiene)", async () => {
    const { driver, embedder } = await withUsage();
    await storeEntries(driver, embedder, [
      entryRecord("kept", "The note called kept", { updatedAt: "2026-02-20T00:00:00.000Z" }),
    ]);
    const report = await driver.deleteWhere({
      namespace: "default",
      categories: undefined,
      olderThan: "2026-02-10T00:00:00.000Z",
      superseded: undefined,
      keepNewest: 0,
      dryRun: false,
    });
    expect(report.deleted).toBe(1);
    await expectOnlyKept(driver);
  });

  it("a namespace purge, and a session purge", async () => {
    const { driver, embedder } = await withUsage();
    await storeEntries(driver, embedder, [
      entryRecord("gone", "The note called gone", { sessionId: "s1" }),
    ]);
    const purge = { categories: undefined, olderThan: undefined, superseded: undefined };
    await driver.deleteWhere({
      ...purge,
      namespace: "default",
      sessionId: "s1",
      keepNewest: 0,
      dryRun: false,
    });
    await expectOnlyKept(driver);
    await driver.deleteWhere({ ...purge, namespace: "default", keepNewest: 0, dryRun: false });
    expect(await driver.usage!.countEvents()).toBe(0);
    expect(await driver.usage!.scan(undefined, undefined, 10)).toEqual([]);
  });

  it("a plain DELETE by another connection, outside the driver's code", async () => {
    const { driver, path } = await withUsage();
    const shell = new Database(path);
    // The full-text triggers ask this function (schema v4); every connection of the package has it.
    shell.function("memory_bulk_loading", (_docId: unknown) => 0);
    shell.prepare("DELETE FROM memories WHERE key = 'gone'").run();
    shell.close();
    await expectOnlyKept(driver);
  });

  it("a store of the same key afterwards starts with no usage", async () => {
    const { driver, embedder } = await withUsage();
    await driver.write(batch({ deletes: [{ namespace: "default", key: "gone" }] }));
    await storeEntries(driver, embedder, [entryRecord("gone", "Back again")]);
    expect(await driver.usage!.read("default", ["gone"])).toEqual([undefined]);
  });
});
