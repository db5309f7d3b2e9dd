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

async function opened() {
  const result = await openDriver();
  drivers.push(result.driver);
  return result;
}

const SNOOZE = "2026-04-01T00:00:00.000Z";

describe("sqlite: pins and snoozes (write batch marks)", () => {
  it("leaves pinned and snoozedUntil out of an entry that has neither", async () => {
    const { driver, embedder } = await opened();
    const { upserted } = await storeEntries(driver, embedder, [
      entryRecord("plain", "A plain note"),
    ]);
    expect(upserted[0]).not.toHaveProperty("pinned");
    expect(upserted[0]).not.toHaveProperty("snoozedUntil");
    const stored = await readOne(driver, "plain");
    expect(stored).not.toHaveProperty("pinned");
    expect(stored).not.toHaveProperty("snoozedUntil");
  });

  it("pins and snoozes an entry without touching updatedAt, and answers each entry as it is now", async () => {
    const { driver, embedder } = await opened();
    await storeEntries(driver, embedder, [entryRecord("deploy", "Deploys run on Fridays")]);
    const { marked } = await driver.write(
      batch({
        marks: [
          { namespace: "default", key: "deploy", pinned: true, snoozedUntil: SNOOZE },
          { namespace: "default", key: "absent", pinned: true },
        ],
      }),
    );
    expect(marked).toHaveLength(2);
    expect(marked![0]).toMatchObject({ key: "deploy", pinned: true, snoozedUntil: SNOOZE });
    expect(marked![0]!.updatedAt).toBe("2026-02-01T00:00:00.000Z");
    expect(marked![1]).toBeUndefined();
    expect(await readOne(driver, "deploy")).toMatchObject({ pinned: true, snoozedUntil: SNOOZE });
  });

  it("keeps a mark the batch does not name, clears a snooze with null and unpins with false", async () => {
    const { driver, embedder } = await opened();
    await storeEntries(driver, embedder, [entryRecord("deploy", "Deploys run on Fridays")]);
    const mark = (fields: { pinned?: boolean; snoozedUntil?: string | null }) =>
      driver.write(batch({ marks: [{ namespace: "default", key: "deploy", ...fields }] }));
    await mark({ pinned: true });
    await mark({ snoozedUntil: SNOOZE });
    expect(await readOne(driver, "deploy")).toMatchObject({ pinned: true, snoozedUntil: SNOOZE });
    await mark({ snoozedUntil: null });
    const unsnoozed = await readOne(driver, "deploy");
    expect(unsnoozed!.pinned).toBe(true);
    expect(unsnoozed).not.toHaveProperty("snoozedUntil");
    await mark({ pinned: false });
    expect(await readOne(driver, "deploy")).not.toHaveProperty("pinned");
  });

  it("applies marks after the batch's upserts, so a batch can store and pin one entry", async () => {
    const { driver, embedder } = await opened();
    const [vector] = await embedder.embed(["A new note"]);
    const result = await driver.write(
      batch({
        upserts: [{ entry: entryRecord("fresh", "A new note"), vector: vector! }],
        marks: [{ namespace: "default", key: "fresh", pinned: true }],
      }),
    );
    expect(result.upserted[0]).not.toHaveProperty("pinned");
    expect(result.marked![0]).toMatchObject({ key: "fresh", pinned: true });
  });

  it("keeps stored marks when an entry is stored again without them; given marks replace them", async () => {
    const { driver, embedder } = await opened();
    await storeEntries(driver, embedder, [entryRecord("deploy", "Deploys run on Fridays")]);
    await driver.write(
      batch({
        marks: [{ namespace: "default", key: "deploy", pinned: true, snoozedUntil: SNOOZE }],
      }),
    );
    const again = await storeEntries(driver, embedder, [
      entryRecord("deploy", "Deploys run on Thursdays", { updatedAt: "2026-02-02T00:00:00.000Z" }),
    ]);
    expect(again.upserted[0]).toMatchObject({ pinned: true, snoozedUntil: SNOOZE });
    expect(await readOne(driver, "deploy")).toMatchObject({
      content: "Deploys run on Thursdays",
      pinned: true,
      snoozedUntil: SNOOZE,
    });
    // An import carries the marks of its export: they win.
    const later = "2026-05-01T00:00:00.000Z";
    await storeEntries(driver, embedder, [
      entryRecord("deploy", "Deploys run on Thursdays", { pinned: false, snoozedUntil: later }),
    ]);
    const imported = await readOne(driver, "deploy");
    expect(imported).not.toHaveProperty("pinned");
    expect(imported!.snoozedUntil).toBe(later);
  });

  it("stores the marks of a new entry's upsert (an import)", async () => {
    const { driver, embedder } = await opened();
    const { upserted } = await storeEntries(driver, embedder, [
      entryRecord("pinned-import", "Pinned in the export", { pinned: true, snoozedUntil: SNOOZE }),
    ]);
    expect(upserted[0]).toMatchObject({ pinned: true, snoozedUntil: SNOOZE });
    const page = await driver.scan({
      filter: { ...recallFilter(), includeSuperseded: true },
      order: { by: "oldest" },
      limit: 10,
    });
    expect(page.entries[0]).toMatchObject({ pinned: true, snoozedUntil: SNOOZE });
  });

  it("leaves the full-text index alone: the entry is found by its words after a mark, with its marks", async () => {
    const { driver, embedder } = await opened();
    await storeEntries(driver, embedder, [entryRecord("deploy", "Deploys run on Fridays")]);
    await driver.write(batch({ marks: [{ namespace: "default", key: "deploy", pinned: true }] }));
    const { hits } = await driver.recallStages.keyword({
      terms: searchTerms(analyzeQuery("fridays deploys")),
      filter: recallFilter(),
      pool: 10,
    });
    expect(hits.map((hit) => hit.entry)).toMatchObject([{ key: "deploy", pinned: true }]);
  });
});
