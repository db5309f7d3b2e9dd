import { analyzeQuery, searchTerms } from "@memory/core";
import { createTestEmbedder } from "@memory/testkit";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import type { PostgresDriver } from "../src/postgres-driver.js";
import {
  batch,
  entryRecord,
  openDriver,
  recallFilter,
  upserts,
  usageEvent,
} from "./driver-harness.js";
import { admin, schemaRegistry } from "./helpers.js";

const schemas = schemaRegistry("marks");
const opened: PostgresDriver[] = [];
afterEach(async () => {
  await Promise.allSettled(opened.splice(0).map((driver) => driver.close()));
});
afterAll(() => schemas.dropAll());

async function open(schema = schemas.next(), embedder = createTestEmbedder({ dimensions: 32 })) {
  const driver = await openDriver(schema, embedder);
  opened.push(driver);
  return { driver, embedder, schema };
}

const at = (key: string) => ({ namespace: "default", key });
const SNOOZE_END = "2026-02-01T00:00:00.000Z";

describe("postgres: pins and snoozes (write batch marks)", () => {
  it("leaves pinned and snoozedUntil absent on an entry nobody marked", async () => {
    const { driver } = await open();
    const written = await driver.write(
      batch({ upserts: await upserts([entryRecord("plain", "nothing special")]) }),
    );
    expect(written.upserted[0]).not.toHaveProperty("pinned");
    expect(written.upserted[0]).not.toHaveProperty("snoozedUntil");
    const [read] = await driver.read([at("plain")]);
    expect(read).not.toHaveProperty("pinned");
    expect(read).not.toHaveProperty("snoozedUntil");
  });

  it("changes only the marks: content, updatedAt, write order and the keyword index stay", async () => {
    const { driver, schema } = await open();
    await driver.write(
      batch({
        upserts: await upserts([
          entryRecord("older", "the lake cabin", { at: "2025-01-01T00:00:00.000Z" }),
          entryRecord("newer", "the lake house", { at: "2025-01-02T00:00:00.000Z" }),
        ]),
      }),
    );
    const before = await admin(
      `SELECT key, updated_at, updated_seq, search_terms FROM "${schema}".memories ORDER BY key`,
    );
    const result = await driver.write(
      batch({
        marks: [
          { ...at("older"), pinned: true, snoozedUntil: SNOOZE_END },
          { ...at("missing"), pinned: true },
        ],
      }),
    );
    expect(result.marked).toHaveLength(2);
    expect(result.marked![0]).toMatchObject({
      key: "older",
      content: "the lake cabin",
      updatedAt: "2025-01-01T00:00:00.000Z",
      pinned: true,
      snoozedUntil: SNOOZE_END,
    });
    expect(result.marked![1]).toBeUndefined();
    const after = await admin(
      `SELECT key, updated_at, updated_seq, search_terms FROM "${schema}".memories ORDER BY key`,
    );
    expect(after).toEqual(before);
    // Still the older one in the recent stage: a pin is not a write of the content.
    const recent = await driver.recallStages.recent(recallFilter(), 10);
    expect(recent.map((entry) => entry.key)).toEqual(["newer", "older"]);
  });

  it("keeps what a mark leaves undefined, and clears a snooze given null", async () => {
    const { driver } = await open();
    await driver.write(batch({ upserts: await upserts([entryRecord("k", "some content")]) }));
    await driver.write(batch({ marks: [{ ...at("k"), pinned: true, snoozedUntil: SNOOZE_END }] }));
    const kept = await driver.write(batch({ marks: [{ ...at("k") }] }));
    expect(kept.marked![0]).toMatchObject({ pinned: true, snoozedUntil: SNOOZE_END });
    const unpinned = await driver.write(batch({ marks: [{ ...at("k"), pinned: false }] }));
    expect(unpinned.marked![0]).not.toHaveProperty("pinned");
    expect(unpinned.marked![0]!.snoozedUntil).toBe(SNOOZE_END);
    const awake = await driver.write(batch({ marks: [{ ...at("k"), snoozedUntil: null }] }));
    expect(awake.marked![0]).not.toHaveProperty("snoozedUntil");
    expect((await driver.read([at("k")]))[0]).not.toHaveProperty("snoozedUntil");
  });

  it("keeps the stored marks when an upsert does not give them, and replaces them when it does", async () => {
    const { driver } = await open();
    await driver.write(batch({ upserts: await upserts([entryRecord("k", "first")]) }));
    await driver.write(batch({ marks: [{ ...at("k"), pinned: true, snoozedUntil: SNOOZE_END }] }));
    const stored = await driver.write(
      batch({
        upserts: await upserts([entryRecord("k", "second", { at: "2025-03-01T00:00:00.000Z" })]),
      }),
    );
    expect(stored.upserted[0]).toMatchObject({
      content: "second",
      pinned: true,
      snoozedUntil: SNOOZE_END,
    });
    // An import carries them: given values win, a snooze and a pin alike.
    const imported = await driver.write(
      batch({
        upserts: await upserts([
          entryRecord("k", "third", { pinned: false, snoozedUntil: "2026-03-01T00:00:00.000Z" }),
          entryRecord("fresh", "new and pinned", { pinned: true }),
        ]),
      }),
    );
    expect(imported.upserted[0]).not.toHaveProperty("pinned");
    expect(imported.upserted[0]!.snoozedUntil).toBe("2026-03-01T00:00:00.000Z");
    expect(imported.upserted[1]).toMatchObject({ key: "fresh", pinned: true });
    expect(imported.upserted[1]).not.toHaveProperty("snoozedUntil");
  });

  it("loses no mark to a store of the same entry by another process at the same time", async () => {
    const { driver, schema } = await open();
    const other = await openDriver(schema);
    opened.push(other);
    await driver.write(batch({ upserts: await upserts([entryRecord("k", "version 0")]) }));
    for (let round = 1; round <= 20; round++) {
      let release!: () => void;
      const gate = new Promise<void>((resolve) => {
        release = resolve;
      });
      const pinned = round % 2 === 1;
      const snoozedUntil = pinned ? SNOOZE_END : null;
      const writes = [
        gate.then(async () =>
          driver.write(batch({ upserts: await upserts([entryRecord("k", `version ${round}`)]) })),
        ),
        gate.then(() => other.write(batch({ marks: [{ ...at("k"), pinned, snoozedUntil }] }))),
      ];
      release();
      await Promise.all(writes);
      const [entry] = await driver.read([at("k")]);
      expect(entry!.content).toBe(`version ${round}`);
      expect(entry!.pinned ?? false).toBe(pinned);
      expect(entry!.snoozedUntil).toBe(snoozedUntil ?? undefined);
    }
  });

  it("applies marks after the batch's upserts, in its transaction", async () => {
    const { driver } = await open();
    const result = await driver.write(
      batch({
        upserts: await upserts([entryRecord("new", "written and pinned at once")]),
        marks: [{ ...at("new"), pinned: true }],
        // A delete of a key that is not there changes nothing, but makes the batch 3 statements.
        deletes: [at("absent")],
      }),
    );
    expect(result.marked![0]).toMatchObject({ key: "new", pinned: true });
    expect((await driver.read([at("new")]))[0]!.pinned).toBe(true);
  });

  it("bumps the recall cache's change token on a mark, never on usage writes", async () => {
    const { driver } = await open();
    await driver.write(batch({ upserts: await upserts([entryRecord("k", "some content")]) }));
    const token = () => driver.recallStages.changeToken!();
    const start = await token();
    await driver.usage.record([usageEvent("r1", "k")], (current, events) => ({
      namespace: "default",
      key: "k",
      stats: {
        surfaced: (current?.stats.surfaced ?? 0) + events.length,
        used: 0,
        ignored: 0,
        queries: 0,
        days: 0,
      },
      recentQueries: [],
    }));
    await driver.usage.put([
      {
        namespace: "default",
        key: "k",
        stats: { surfaced: 9, used: 1, ignored: 0, queries: 1, days: 1 },
        recentQueries: ["sha256:ab"],
      },
    ]);
    await driver.usage.prune("2027-01-01T00:00:00.000Z", 0);
    expect(await token()).toBe(start);
    await driver.write(batch({ marks: [{ ...at("k"), snoozedUntil: SNOOZE_END }] }));
    const afterMark = await token();
    expect(afterMark).toBeDefined();
    expect(afterMark).not.toBe(start);
  });
});

describe("postgres: awakeAt leaves snoozed entries out of every recall stage", () => {
  const content = {
    awake: "the lake cabin by the pines",
    snoozed: "the lake house by the pines",
    expired: "the lake shed by the pines",
  };

  async function snoozedStore() {
    const opened = await open();
    const { driver, embedder } = opened;
    await driver.write(
      batch({
        upserts: await upserts(
          Object.entries(content).map(([key, text], i) =>
            entryRecord(key, text, {
              sessionId: "s",
              at: `2025-01-0${i + 1}T00:00:00.000Z`,
            }),
          ),
          embedder,
        ),
        marks: [
          { ...at("snoozed"), snoozedUntil: SNOOZE_END },
          { ...at("expired"), snoozedUntil: "2026-01-01T00:00:00.000Z" },
        ],
      }),
    );
    return opened;
  }

  // Before the snooze ends; exactly when it ends (awake again), and with no awakeAt at all.
  const ASLEEP = recallFilter({ awakeAt: "2026-01-15T00:00:00.000Z" });
  const AT_END = recallFilter({ awakeAt: SNOOZE_END });
  const ALL = recallFilter();
  const keys = (entries: readonly { key: string }[]) => entries.map((entry) => entry.key).sort();

  it("in the recent stage", async () => {
    const { driver } = await snoozedStore();
    const stages = driver.recallStages;
    expect(keys(await stages.recent(ASLEEP, 10))).toEqual(["awake", "expired"]);
    expect(keys(await stages.recent(AT_END, 10))).toEqual(["awake", "expired", "snoozed"]);
    expect(keys(await stages.recent(ALL, 10))).toEqual(["awake", "expired", "snoozed"]);
    // The limit applies after the filter: the newest awake entry, not the snoozed one.
    expect(keys(await stages.recent(ASLEEP, 1))).toEqual(["expired"]);
  });

  it("in the keyword and like stages", async () => {
    const { driver } = await snoozedStore();
    const stages = driver.recallStages;
    const terms = searchTerms(analyzeQuery("lake pines"));
    const hits = async (filter: typeof ALL) =>
      keys((await stages.keyword({ terms, filter, pool: 10 })).hits.map((hit) => hit.entry));
    expect(await hits(ASLEEP)).toEqual(["awake", "expired"]);
    expect(await hits(ALL)).toEqual(["awake", "expired", "snoozed"]);
    expect(keys(await stages.like!(["house"], ASLEEP, 10))).toEqual([]);
    expect(keys(await stages.like!(["house"], AT_END, 10))).toEqual(["snoozed"]);
  });

  it("in the vector stage", async () => {
    const { driver, embedder } = await snoozedStore();
    const stages = driver.recallStages;
    const vector = Float32Array.from(
      await embedder.embedOne(content.snoozed, { purpose: "query" }),
    );
    const hits = async (filter: typeof ALL) =>
      keys((await stages.vector({ vector, filter, pool: 10 })).map((hit) => hit.entry));
    expect(await hits(ASLEEP)).toEqual(["awake", "expired"]);
    expect(await hits(ALL)).toEqual(["awake", "expired", "snoozed"]);
  });

  it("among session neighbours", async () => {
    const { driver } = await snoozedStore();
    const [awake] = await driver.read([at("awake")]);
    // awake, snoozed, expired were written in that order in session s.
    const neighbours = await driver.recallStages.neighbors!([awake!.id], ASLEEP);
    expect(neighbours.get(awake!.id)!.map((item) => item.entry.key)).toEqual(["expired"]);
    const all = await driver.recallStages.neighbors!([awake!.id], ALL);
    expect(all.get(awake!.id)!.map((item) => item.entry.key)).toEqual(["snoozed"]);
  });
});

describe("postgres: deleteWhere keepPinned", () => {
  it("keeps pinned entries out of the deletion and out of a dry run's counts", async () => {
    const { driver } = await open();
    await driver.write(
      batch({
        upserts: await upserts(
          ["a", "b", "c", "d"].map((key, i) =>
            entryRecord(key, `note ${key}`, { at: `2025-01-0${i + 1}T00:00:00.000Z` }),
          ),
        ),
        marks: [{ ...at("a"), pinned: true }],
      }),
    );
    const filter = {
      namespace: "default",
      sessionId: undefined,
      categories: undefined,
      olderThan: "2025-01-03T12:00:00.000Z",
      superseded: undefined,
      keepNewest: 0,
      keepPinned: true,
    };
    const dry = await driver.deleteWhere({ ...filter, dryRun: true });
    expect(dry).toEqual({ deleted: 2, byCategory: { core: { eligible: 2, deleted: 2 } } });
    // Without keepPinned a pin protects nothing.
    const unprotected = await driver.deleteWhere({ ...filter, keepPinned: false, dryRun: true });
    expect(unprotected.deleted).toBe(3);
    const done = await driver.deleteWhere({ ...filter, dryRun: false });
    expect(done).toEqual(dry);
    const left = await driver.read(["a", "b", "c", "d"].map(at));
    expect(left.map((entry) => entry?.key)).toEqual(["a", undefined, undefined, "d"]);
  });
});
