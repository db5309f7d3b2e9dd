import type { DeleteWhere, NormalizedFilter } from "@memory/api";
import { analyzeQuery, searchTerms } from "@memory/core";
import { afterEach, describe, expect, it } from "vitest";
import type { SqliteDriver } from "../src/index.js";
import {
  batch,
  entryRecord,
  openDriver,
  readOne,
  recallFilter,
  storeEntries,
} from "./usage-helpers.js";

const drivers: SqliteDriver[] = [];
afterEach(async () => {
  for (const driver of drivers.splice(0)) await driver.close();
});

const AWAKE_AT = "2026-03-01T12:00:00.000Z";
const LATER = "2026-04-01T00:00:00.000Z";
const EARLIER = "2026-02-15T00:00:00.000Z";

/**
 * Three coffee notes of one session: `snoozed` until after AWAKE_AT, `woken` snoozed until
 * before it (awake again), `plain` never snoozed.
 */
async function coffeeStore(options: { otherNamespace?: boolean } = {}) {
  const result = await openDriver();
  drivers.push(result.driver);
  const { driver, embedder } = result;
  const session = { sessionId: "s1" };
  await storeEntries(driver, embedder, [
    entryRecord("plain", "Coffee espresso order at the cafe", {
      ...session,
      createdAt: "2026-02-01T00:00:01.000Z",
      updatedAt: "2026-02-01T00:00:01.000Z",
    }),
    entryRecord("snoozed", "Coffee espresso beans", {
      ...session,
      createdAt: "2026-02-01T00:00:02.000Z",
      updatedAt: "2026-02-01T00:00:02.000Z",
    }),
    entryRecord("woken", "Coffee espresso machine descaling", {
      ...session,
      createdAt: "2026-02-01T00:00:03.000Z",
      updatedAt: "2026-02-01T00:00:03.000Z",
    }),
  ]);
  if (options.otherNamespace)
    await storeEntries(driver, embedder, [
      entryRecord("elsewhere", "Coffee espresso elsewhere", { namespace: "other" }),
    ]);
  await driver.write(
    batch({
      marks: [
        { namespace: "default", key: "snoozed", snoozedUntil: LATER },
        { namespace: "default", key: "woken", snoozedUntil: EARLIER },
      ],
    }),
  );
  return result;
}

const keys = (entries: readonly { key: string }[]) => entries.map((entry) => entry.key).sort();
const entries = (hits: readonly { entry: { key: string } }[]) => hits.map((hit) => hit.entry);

describe("sqlite: recall stages leave out entries snoozed past awakeAt", () => {
  const cases: [string, { otherNamespace?: boolean }, Partial<NormalizedFilter>][] = [
    ["the namespace alone (FTS5's ranking first)", {}, {}],
    ["beside another namespace (joined through the covering index)", { otherNamespace: true }, {}],
    ["under a category filter", {}, { categories: ["core"] }],
  ];
  for (const [name, options, extra] of cases) {
    it(`keyword stage, ${name}`, async () => {
      const { driver } = await coffeeStore(options);
      const terms = searchTerms(analyzeQuery("coffee espresso"));
      const ask = async (awakeAt?: string) =>
        keys(
          entries(
            (
              await driver.recallStages.keyword({
                terms,
                filter: recallFilter({ ...extra, ...(awakeAt ? { awakeAt } : {}) }),
                pool: 2,
              })
            ).hits,
          ),
        );
      // The pool is smaller than the matches and the snoozed entry is the best of them: it must
      // not take a place (the ranked-first path then answers from the joined statement).
      expect(await ask()).toContain("snoozed");
      expect(await ask(AWAKE_AT)).toEqual(["plain", "woken"]);
      expect(
        keys(
          entries(
            (
              await driver.recallStages.keyword({
                terms,
                filter: recallFilter({ ...extra, awakeAt: AWAKE_AT }),
                pool: 10,
              })
            ).hits,
          ),
        ),
      ).toEqual(["plain", "woken"]);
    });
  }

  for (const [name, extra] of [
    ["from the in-memory index", {}],
    ["from the exact scan of a narrow filter", { sessionId: "s1" }],
  ] as const) {
    it(`vector stage, ${name}`, async () => {
      const { driver, embedder } = await coffeeStore();
      const [query] = await embedder.embed(["coffee espresso"]);
      const vector = Float32Array.from(query!);
      const hits = await driver.recallStages.vector({
        vector,
        filter: recallFilter({ ...extra, awakeAt: AWAKE_AT }),
        pool: 3,
      });
      expect(keys(entries(hits))).toEqual(["plain", "woken"]);
      const all = await driver.recallStages.vector({
        vector,
        filter: recallFilter(extra),
        pool: 3,
      });
      expect(keys(entries(all))).toEqual(["plain", "snoozed", "woken"]);
    });
  }

  it("recent, like and session neighbours stages", async () => {
    const { driver } = await coffeeStore();
    const filter = recallFilter({ awakeAt: AWAKE_AT });
    expect(keys(await driver.recallStages.recent(filter, 10))).toEqual(["plain", "woken"]);
    expect(keys(await driver.recallStages.recent(recallFilter(), 10))).toEqual([
      "plain",
      "snoozed",
      "woken",
    ]);
    expect(keys(await driver.recallStages.like(["beans", "cafe"], filter, 10))).toEqual(["plain"]);
    expect(keys(await driver.recallStages.like(["beans"], recallFilter(), 10))).toEqual([
      "snoozed",
    ]);
    const plain = await readOne(driver, "plain");
    const neighbors = await driver.recallStages.neighbors!([plain!.id], filter);
    // "snoozed" is plain's next turn; with it left out, the turn after it is the neighbour.
    expect(keys(neighbors.get(plain!.id)!.map((indexed) => indexed.entry))).toEqual(["woken"]);
  });

  it("counts and lists snoozed entries when no awakeAt is given (list, export)", async () => {
    const { driver } = await coffeeStore();
    expect(await driver.count(recallFilter())).toBe(3);
    expect(await driver.count(recallFilter({ awakeAt: AWAKE_AT }))).toBe(2);
  });
});

describe("sqlite: deleteWhere keeps pinned entries with keepPinned", () => {
  const where = (extra: Partial<DeleteWhere> = {}): DeleteWhere => ({
    namespace: "default",
    categories: undefined,
    olderThan: "2026-03-01T00:00:00.000Z",
    superseded: undefined,
    keepNewest: 0,
    dryRun: false,
    ...extra,
  });

  async function pinnedStore() {
    const result = await openDriver();
    drivers.push(result.driver);
    await storeEntries(result.driver, result.embedder, [
      entryRecord("old-pinned", "An old pinned note"),
      entryRecord("old-plain", "An old plain note"),
    ]);
    await result.driver.write(
      batch({ marks: [{ namespace: "default", key: "old-pinned", pinned: true }] }),
    );
    return result.driver;
  }

  it("leaves pinned entries out of the dry run's counts and of the deletion", async () => {
    const driver = await pinnedStore();
    expect(await driver.deleteWhere(where({ keepPinned: true, dryRun: true }))).toEqual({
      deleted: 1,
      byCategory: { core: { eligible: 1, deleted: 1 } },
    });
    expect(await driver.deleteWhere(where({ keepPinned: true }))).toMatchObject({ deleted: 1 });
    expect(await readOne(driver, "old-pinned")).toMatchObject({ pinned: true });
    expect(await readOne(driver, "old-plain")).toBeUndefined();
  });

  it("deletes pinned entries like any other without keepPinned (a purge)", async () => {
    const driver = await pinnedStore();
    expect(await driver.deleteWhere(where())).toMatchObject({ deleted: 2 });
    expect(await readOne(driver, "old-pinned")).toBeUndefined();
  });
});
