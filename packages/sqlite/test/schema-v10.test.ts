import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import type { SqliteDriver } from "../src/index.js";
import { SCHEMA_VERSION } from "../src/migrations/schema.js";
import { tempDbPath } from "./helpers.js";
import {
  batch,
  countInto,
  entryRecord,
  openDriver,
  readOne,
  storeEntries,
  usageEvent,
} from "./usage-helpers.js";

const drivers: SqliteDriver[] = [];
afterEach(async () => {
  for (const driver of drivers.splice(0)) await driver.close();
});

async function open(path: string) {
  const result = await openDriver(path);
  drivers.push(result.driver);
  return result;
}

describe("schema v10: pins, snoozes, usage and the change token", () => {
  it("upgrades a v9 file on open: every row kept, unmarked, with usage from then on", async () => {
    const path = tempDbPath();
    const first = await open(path);
    await storeEntries(first.driver, first.embedder, [
      entryRecord("cause", "The server ran out of disk"),
      entryRecord("effect", "The nightly backup failed"),
    ]);
    await first.driver.close();
    // The file as v9 left it: no marks, no usage tables, no change token.
    const raw = new Database(path);
    const v10Triggers = raw
      .prepare(
        "SELECT name FROM sqlite_master WHERE type = 'trigger' AND (name LIKE '%_change_%' OR name = 'memories_usage_cleanup') AND tbl_name <> 'memory_changes'",
      )
      .pluck()
      .all() as string[];
    expect(v10Triggers).toHaveLength(10);
    for (const name of v10Triggers) raw.exec(`DROP TRIGGER "${name}"`);
    raw.exec(`DROP TABLE usage_events; DROP TABLE usage_records; DROP INDEX memories_snoozed;
      ALTER TABLE memories DROP COLUMN pinned; ALTER TABLE memories DROP COLUMN snoozed_until;
      DELETE FROM meta WHERE key = 'change_seq';
      UPDATE meta SET value = '9' WHERE key = 'schema_version';`);
    raw.close();

    const { driver } = await open(path);
    const cause = await readOne(driver, "cause");
    expect(cause!.content).toBe("The server ran out of disk");
    expect(cause).not.toHaveProperty("pinned");
    expect(cause).not.toHaveProperty("snoozedUntil");
    const { marked } = await driver.write(
      batch({ marks: [{ namespace: "default", key: "cause", pinned: true }] }),
    );
    expect(marked![0]).toMatchObject({ key: "cause", pinned: true });
    await driver.usage!.record([usageEvent("r1", "effect", "surfaced")], countInto);
    expect((await driver.usage!.read("default", ["effect"]))[0]!.stats.surfaced).toBe(1);
    await driver.write(batch({ deletes: [{ namespace: "default", key: "effect" }] }));
    expect(await driver.usage!.countEvents()).toBe(0);
    await driver.close();

    const check = new Database(path, { readonly: true });
    expect(check.prepare("SELECT value FROM meta WHERE key = 'schema_version'").get()).toEqual({
      value: String(SCHEMA_VERSION),
    });
    expect(
      Number(check.prepare("SELECT value FROM meta WHERE key = 'change_seq'").pluck().get()),
    ).toBeGreaterThan(0);
    check.close();
  });
});

describe("sqlite: the recall cache's change token across processes", () => {
  async function twoConnections() {
    const path = tempDbPath();
    const writer = await open(path);
    await storeEntries(writer.driver, writer.embedder, [
      entryRecord("a", "Coffee espresso order"),
      entryRecord("b", "Tea order"),
    ]);
    const reader = await open(path);
    return { writer: writer.driver, embedder: writer.embedder, reader: reader.driver };
  }

  it("stays when another connection records, puts or prunes usage", async () => {
    const { writer, reader } = await twoConnections();
    const token = reader.recallStages.changeToken!();
    await writer.usage!.record([usageEvent("r1", "a", "surfaced")], countInto);
    expect(reader.recallStages.changeToken!()).toBe(token);
    await writer.usage!.put([
      {
        namespace: "default",
        key: "b",
        stats: { surfaced: 4, used: 1, ignored: 0, queries: 1, days: 1 },
        recentQueries: [],
      },
    ]);
    await writer.usage!.prune("2027-01-01T00:00:00.000Z", 10);
    expect(reader.recallStages.changeToken!()).toBe(token);
  });

  it("moves when another connection pins or snoozes, writes, deletes or relates", async () => {
    const { writer, embedder, reader } = await twoConnections();
    const steps: [string, () => Promise<unknown>][] = [
      [
        "pin",
        () => writer.write(batch({ marks: [{ namespace: "default", key: "a", pinned: true }] })),
      ],
      [
        "snooze",
        () =>
          writer.write(
            batch({
              marks: [{ namespace: "default", key: "b", snoozedUntil: "2026-04-01T00:00:00.000Z" }],
            }),
          ),
      ],
      ["store", () => storeEntries(writer, embedder, [entryRecord("c", "Juice order")])],
      [
        // 16 upserts or more go through the bulk-load gate, whose rows skip the trigger
        // (without vectors: a vector write moves the token by itself).
        "import",
        () =>
          writer.write(
            batch({
              upserts: Array.from({ length: 20 }, (_, index) => ({
                entry: entryRecord(`bulk-${index}`, `Bulk ${index}`),
              })),
            }),
          ),
      ],
      [
        "relate",
        () =>
          writer.write(
            batch({
              relations: [
                {
                  relation: {
                    namespace: "default",
                    from: "a",
                    to: "c",
                    type: "relates_to",
                    weight: 1,
                    createdAt: "2026-02-01T00:00:00.000Z",
                    updatedAt: "2026-02-01T00:00:00.000Z",
                  },
                },
              ],
            }),
          ),
      ],
      ["forget", () => writer.write(batch({ deletes: [{ namespace: "default", key: "c" }] }))],
    ];
    for (const [name, step] of steps) {
      const before = reader.recallStages.changeToken!();
      await step();
      expect(reader.recallStages.changeToken!(), name).not.toBe(before);
    }
  });
});
