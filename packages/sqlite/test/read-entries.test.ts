import type { EntryKey } from "@memory/api";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { BATCH_READ_MIN, readEntries } from "../src/entry-queries.js";
import { createSqliteMemory } from "../src/index.js";
import type { Opened } from "../src/opened-store.js";
import { StatementCache } from "../src/statement-cache.js";
import { tempDbPath } from "./helpers.js";

const databases: Database.Database[] = [];
afterEach(() => {
  for (const db of databases.splice(0)) db.close();
});

/** Keys JSON escapes or SQLite's JSON reader could get wrong, each stored in two namespaces. */
const ODD_KEYS = [
  'quote "inside"',
  "back\\slash",
  "tab\there",
  "line\nbreak",
  "control \u0001\u001f\u007f",
  "unicode café 東京 🦊",
  '["looks", "like", "json"]',
  "a,b",
  "%_*?",
  "k".repeat(1024),
  "plain",
];

async function stored(): Promise<StatementCache> {
  const path = tempDbPath();
  const memory = createSqliteMemory({ path, logger: () => {} });
  for (const namespace of ["default", "other"])
    for (const key of ODD_KEYS)
      await memory.store({ key, content: `${namespace}: ${key}`, namespace });
  await memory.store({ key: "plain", content: "first words" });
  await memory.store({ key: "plain", content: "then other words" }); // two kept versions
  await memory.close();
  const db = new Database(path);
  databases.push(db);
  return new StatementCache(db);
}

const openedWith = (statements: StatementCache) => ({ statements }) as unknown as Opened;

/** The real statements, with each run of an entry read (`get` or `all`) counted. */
function countingRuns(statements: StatementCache): { cache: StatementCache; runs: () => number } {
  let runs = 0;
  const counted = (statement: Database.Statement) =>
    new Proxy(statement, {
      get(target, property) {
        const value = Reflect.get(target, property, target);
        if (typeof value !== "function") return value;
        if (property !== "get" && property !== "all") return value.bind(target);
        return (...args: unknown[]) => {
          runs++;
          return value.apply(target, args);
        };
      },
    });
  const cache = {
    db: statements.db,
    get: (sql: string) =>
      sql.includes("FROM memories m") ? counted(statements.get(sql)) : statements.get(sql),
    snapshot: <T>(read: () => T) => statements.snapshot(read),
  } as unknown as StatementCache;
  return { cache, runs: () => runs };
}

/** Each key on its own: fewer keys than a batch (the lookups, one statement each). */
function oneByOne(statements: StatementCache, keys: readonly EntryKey[]) {
  return keys.map((key) => readEntries(openedWith(statements), [key], false)[0]);
}

describe("sqlite: reading many keys at once", () => {
  it("answers what one lookup per key answers, odd keys, missing keys and repeats included", async () => {
    const statements = await stored();
    const keys: EntryKey[] = [
      ...ODD_KEYS.map((key) => ({ namespace: "default", key })),
      { namespace: "other", key: "tab\there" },
      { namespace: "default", key: "missing" },
      { namespace: "nowhere", key: "plain" },
      { namespace: "default", key: "plain::history:1" },
      { namespace: "default", key: "plain::history:2" },
      { namespace: "default", key: "PLAIN" },
      { namespace: "default", key: "plain" },
    ];
    expect(keys.length).toBeGreaterThanOrEqual(BATCH_READ_MIN);
    const batched = readEntries(openedWith(statements), keys, false);
    expect(batched).toEqual(oneByOne(statements, keys));
    expect(batched.map((entry) => entry?.key)).toEqual([
      ...ODD_KEYS,
      "tab\there",
      undefined,
      undefined,
      "plain::history:1",
      "plain::history:2",
      undefined,
      "plain",
    ]);
    expect(batched[11]!.namespace).toBe("other");
    expect(new Set([batched[14]!.content, batched[15]!.content])).toEqual(
      new Set(["default: plain", "first words"]),
    );
    // A key asked twice gets two entries, not one shared object.
    expect(batched.at(-1)).not.toBe(batched[ODD_KEYS.indexOf("plain")]);
    expect(batched.at(-1)).toEqual(batched[ODD_KEYS.indexOf("plain")]);
  });

  it("reads a key's 100 version slots in one statement per namespace", async () => {
    const statements = await stored();
    const counting = countingRuns(statements);
    const slots = Array.from({ length: 100 }, (_, index) => ({
      namespace: "default",
      key: `plain::history:${index + 1}`,
    }));
    const found = readEntries(openedWith(counting.cache), slots, false);
    expect(found.filter(Boolean).map((entry) => entry!.key)).toEqual([
      "plain::history:1",
      "plain::history:2",
    ]);
    expect(counting.runs()).toBe(1);
    readEntries(
      openedWith(counting.cache),
      [...slots, { namespace: "other", key: "plain" }],
      false,
    );
    expect(counting.runs()).toBe(3);
  });

  it("looks up keys JSON would not carry back unchanged one by one (the driver is not validated)", async () => {
    const statements = await stored();
    const counting = countingRuns(statements);
    const keys = ODD_KEYS.map((key) => ({ namespace: "default", key }));
    const lone = { namespace: "default", key: "lone \ud800 surrogate" };
    const found = readEntries(openedWith(counting.cache), [...keys, lone], false);
    expect(found.map((entry) => entry?.key)).toEqual([...ODD_KEYS, undefined]);
    expect(counting.runs()).toBe(keys.length + 1);
  });
});
