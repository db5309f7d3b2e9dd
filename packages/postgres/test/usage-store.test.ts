import type { UsageEvent, UsageRecord } from "@memory/api";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import type { PostgresDriver } from "../src/postgres-driver.js";
import { batch, entryRecord, openDriver, upserts, usageEvent } from "./driver-harness.js";
import { schemaRegistry } from "./helpers.js";

const schemas = schemaRegistry("usage");
const opened: PostgresDriver[] = [];
afterEach(async () => {
  await Promise.allSettled(opened.splice(0).map((driver) => driver.close()));
});
afterAll(() => schemas.dropAll());

async function open(schema = schemas.next()) {
  const driver = await openDriver(schema);
  opened.push(driver);
  return driver;
}

/** A driver over a fresh schema holding entries `keys` of `namespace`. */
async function withEntries(keys: readonly string[], namespace = "default", schema?: string) {
  const driver = await open(schema);
  await driver.write(
    batch({
      upserts: await upserts(keys.map((key) => entryRecord(key, `note ${key}`, { namespace }))),
    }),
  );
  return driver;
}

/** The facade's kind of update, reduced: counts each kind of event. */
function counting(current: UsageRecord | undefined, events: readonly UsageEvent[]): UsageRecord {
  const stats = {
    ...(current?.stats ?? { surfaced: 0, used: 0, ignored: 0, queries: 0, days: 0 }),
  };
  for (const event of events) stats[event.kind]++;
  const last = events.at(-1)!;
  return {
    namespace: last.namespace,
    key: last.key,
    stats: { ...stats, lastSurfacedAt: last.at },
    lastUsedDay: last.at.slice(0, 10),
    recentQueries: [...(current?.recentQueries ?? []), ...events.map((event) => event.query ?? "")],
  };
}

const stats = (surfaced: number, used = 0, ignored = 0) => ({
  surfaced,
  used,
  ignored,
  queries: 0,
  days: 0,
});

describe("postgres: driver usage", () => {
  it("appends events and updates each entry's record with its events, in order", async () => {
    const driver = await withEntries(["a", "b"]);
    const calls: [string, UsageRecord | undefined, string[]][] = [];
    const update = (current: UsageRecord | undefined, events: readonly UsageEvent[]) => {
      calls.push([events[0]!.key, current, events.map((event) => event.kind)]);
      return counting(current, events);
    };
    await driver.usage.record(
      [
        usageEvent("r1", "a", { query: "sha256:q1" }),
        usageEvent("r1", "b", { query: "sha256:q1" }),
        // Not an entry: its event is appended all the same, but it gets no record.
        usageEvent("r1", "ghost", { query: "sha256:q1" }),
      ],
      update,
    );
    await driver.usage.record(
      [
        usageEvent("r1", "a", { kind: "used", at: "2026-01-02T10:00:00.000Z" }),
        usageEvent("r1", "a", { kind: "ignored", at: "2026-01-02T10:00:00.001Z" }),
      ],
      update,
    );
    expect(calls.map(([key, current, kinds]) => [key, current?.stats.surfaced, kinds])).toEqual([
      ["a", undefined, ["surfaced"]],
      ["b", undefined, ["surfaced"]],
      ["a", 1, ["used", "ignored"]],
    ]);
    const events = await driver.usage.events("default", "r1");
    expect(events.map((event) => [event.key, event.kind])).toEqual([
      ["a", "surfaced"],
      ["b", "surfaced"],
      ["ghost", "surfaced"],
      ["a", "used"],
      ["a", "ignored"],
    ]);
    expect(events[0]).toEqual({
      recallId: "r1",
      namespace: "default",
      key: "a",
      kind: "surfaced",
      at: "2026-01-01T00:00:00.000Z",
      query: "sha256:q1",
      source: "recall",
    });
    expect(events[3]).not.toHaveProperty("query");
    const [a, b, ghost] = await driver.usage.read("default", ["a", "b", "ghost"]);
    expect(a).toEqual({
      namespace: "default",
      key: "a",
      stats: { ...stats(1, 1, 1), lastSurfacedAt: "2026-01-02T10:00:00.001Z" },
      lastUsedDay: "2026-01-02",
      recentQueries: ["sha256:q1", "", ""],
    });
    expect(b!.stats.surfaced).toBe(1);
    expect(ghost).toBeUndefined();
    expect(await driver.usage.countEvents()).toBe(5);
  });

  it("keeps namespaces apart: events and records of one never show in another", async () => {
    const schema = schemas.next();
    const driver = await withEntries(["k"], "one", schema);
    await driver.write(
      batch({ upserts: await upserts([entryRecord("k", "x", { namespace: "two" })]) }),
    );
    await driver.usage.record([usageEvent("r", "k", { namespace: "one" })], counting);
    expect(await driver.usage.events("two", "r")).toEqual([]);
    expect(await driver.usage.read("two", ["k"])).toEqual([undefined]);
    expect((await driver.usage.read("one", ["k"]))[0]!.stats.surfaced).toBe(1);
  });

  it("loses no count when two processes record the same entries at once, many times", async () => {
    const schema = schemas.next();
    const first = await withEntries(["a", "b", "c"], "default", schema);
    const second = await open(schema);
    const rounds = 25;
    for (let round = 0; round < rounds; round++) {
      // Both start behind one gate; opposite key orders must not deadlock.
      let release!: () => void;
      const gate = new Promise<void>((resolve) => {
        release = resolve;
      });
      const recording = [
        [first, ["a", "b", "c"]],
        [second, ["c", "b", "a"]],
      ].map(async ([driver, keys]) => {
        await gate;
        await (driver as PostgresDriver).usage.record(
          (keys as string[]).map((key) => usageEvent(`r${round}`, key)),
          counting,
        );
      });
      release();
      await Promise.all(recording);
    }
    const records = await first.usage.read("default", ["a", "b", "c"]);
    expect(records.map((record) => record!.stats.surfaced)).toEqual([50, 50, 50]);
    expect(await second.usage.countEvents()).toBe(rounds * 6);
  });

  it("scans records by namespace then key in code-point order, page after page", async () => {
    const schema = schemas.next();
    const keys = ["b", "B", "a", "é", "z", "😀", "ﬀ"];
    const driver = await withEntries(keys, "n1", schema);
    await driver.write(
      batch({ upserts: await upserts([entryRecord("a", "x", { namespace: "n0" })]) }),
    );
    await driver.usage.record(
      [
        ...keys.map((key) => usageEvent("r", key, { namespace: "n1" })),
        usageEvent("r", "a", { namespace: "n0" }),
      ],
      counting,
    );
    const codePoint = (a: string, b: string) => {
      const [x, y] = [Array.from(a), Array.from(b)];
      for (let i = 0; i < Math.min(x.length, y.length); i++) {
        const d = x[i]!.codePointAt(0)! - y[i]!.codePointAt(0)!;
        if (d !== 0) return d;
      }
      return x.length - y.length;
    };
    const expected = [["n0", "a"], ...[...keys].sort(codePoint).map((key) => ["n1", key])];
    const paged: string[][] = [];
    let after: { namespace: string; key: string } | undefined;
    for (;;) {
      const page = await driver.usage.scan(undefined, after, 3);
      paged.push(...page.map((record) => [record.namespace, record.key]));
      if (page.length < 3) break;
      after = page.at(-1)!;
    }
    expect(paged).toEqual(expected);
    const one = await driver.usage.scan("n1", { namespace: "n1", key: "b" }, 100);
    expect(one.map((record) => record.key)).toEqual(["z", "é", "ﬀ", "😀"]);
  });

  it("puts records as given, replacing stored ones, and skips keys that are not entries", async () => {
    const driver = await withEntries(["a", "b"]);
    await driver.usage.record([usageEvent("r", "a")], counting);
    const given: UsageRecord = {
      namespace: "default",
      key: "a",
      stats: { ...stats(7, 3), queries: 2, days: 2, lastUsedAt: "2025-06-01T00:00:00.000Z" },
      lastUsedDay: "2025-06-01",
      recentQueries: ["sha256:1", "sha256:2"],
    };
    await driver.usage.put([
      { ...given, stats: stats(1) },
      given,
      { ...given, key: "b", lastUsedDay: undefined },
      { ...given, key: "ghost" },
    ]);
    const [a, b, ghost] = await driver.usage.read("default", ["a", "b", "ghost"]);
    expect(a).toEqual(given);
    expect(b).not.toHaveProperty("lastUsedDay");
    expect(ghost).toBeUndefined();
  });

  it("prunes events by age, then the oldest beyond the count to keep", async () => {
    const driver = await withEntries(["a"]);
    const days = ["2026-01-01", "2026-01-02", "2026-01-03", "2026-01-04", "2026-01-05"];
    for (const day of days)
      await driver.usage.record([usageEvent(day, "a", { at: `${day}T00:00:00.000Z` })], counting);
    expect(await driver.usage.prune("2026-01-02T00:00:00.000Z", 100)).toBe(1);
    expect(await driver.usage.prune("2026-01-01T00:00:00.000Z", 2)).toBe(2);
    expect(await driver.usage.countEvents()).toBe(2);
    expect(await driver.usage.events("default", "2026-01-04")).toHaveLength(1);
    expect(await driver.usage.events("default", "2026-01-03")).toEqual([]);
    // The statistics stay.
    expect((await driver.usage.read("default", ["a"]))[0]!.stats.surfaced).toBe(5);
    expect(await driver.usage.prune("2026-01-01T00:00:00.000Z", 0)).toBe(2);
    expect(await driver.usage.countEvents()).toBe(0);
  });

  it("reports the number of usage events in the health details", async () => {
    const driver = await withEntries(["a"]);
    await driver.usage.record([usageEvent("r", "a"), usageEvent("r", "b")], counting);
    expect((await driver.health()).details).toMatchObject({ usageEvents: 2 });
  });
});
