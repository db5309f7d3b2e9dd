import type { NormalizedFilter } from "@memory/api";
import { recallFilter } from "@memory/testkit";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { createSqliteMemory } from "../src/index.js";
import { EffectiveFilters } from "../src/recall/effective-filter.js";
import { StatementCache } from "../src/statement-cache.js";
import { tempDbPath } from "./helpers.js";

const filterOf = (namespace: string, excludeCategories?: string[]) =>
  recallFilter({ namespace, excludeCategories });

// One instance per file, as a driver keeps one: its facts are kept per write version, so every
// write below must be seen through it.
const filters = new EffectiveFilters();
const effectiveFilter = <F extends NormalizedFilter>(statements: StatementCache, filter: F) =>
  filters.of(statements, filter);

const closers: (() => unknown)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

describe("sqlite: filter conditions that exclude nothing", () => {
  it("drop excluded categories the namespace holds no entry of; present ones stay, per namespace, a new entry counting at once", async () => {
    const path = tempDbPath();
    const memory = createSqliteMemory({ path, logger: () => {} });
    closers.push(() => memory.close());
    await memory.store({ key: "a1", content: "a daily note", namespace: "a", category: "daily" });
    await memory.store({ key: "b1", content: "a core fact", namespace: "b", category: "core" });
    // A second connection, as another process would have.
    const db = new Database(path);
    closers.push(() => db.close());
    const statements = new StatementCache(db);

    const untouched = filterOf("a");
    expect(effectiveFilter(statements, untouched)).toBe(untouched);
    expect(
      effectiveFilter(statements, filterOf("a", ["triple", "entity"])).excludeCategories,
    ).toBeUndefined();
    expect(
      effectiveFilter(statements, filterOf("a", ["daily", "triple"])).excludeCategories,
    ).toEqual(["daily"]);
    // Namespace b has no daily entry (a has): the exclusion narrows nothing there.
    expect(effectiveFilter(statements, filterOf("b", ["daily"])).excludeCategories).toBeUndefined();

    await memory.store({ key: "b2", content: "a daily note", namespace: "b", category: "daily" });
    expect(effectiveFilter(statements, filterOf("b", ["daily"])).excludeCategories).toEqual([
      "daily",
    ]);
    // The rest of the filter is kept as it was.
    const kept = effectiveFilter(statements, {
      ...filterOf("a", ["entity"]),
      sessionId: "s",
    });
    expect(kept).toEqual({ ...filterOf("a"), sessionId: "s" });
  });

  it("drop awakeAt while no entry is snoozed past it, and keep it once one is", async () => {
    const path = tempDbPath();
    const memory = createSqliteMemory({ path, logger: () => {} });
    closers.push(() => memory.close());
    await memory.store({ key: "a1", content: "a daily note", namespace: "a", category: "daily" });
    const db = new Database(path);
    closers.push(() => db.close());
    const statements = new StatementCache(db);
    const awake = { ...filterOf("a"), awakeAt: "2030-06-01T00:00:00.000Z" };
    expect(effectiveFilter(statements, awake)).toEqual(filterOf("a"));
    // Snoozed in another namespace counts too (one partial index for the file): kept, as it must
    // never drop a condition that could exclude something.
    await memory.store({ key: "b1", content: "later", namespace: "b", category: "daily" });
    await memory.snooze("b1", { until: "2030-07-01T00:00:00.000Z", namespace: "b" });
    expect(effectiveFilter(statements, awake)).toBe(awake);
    // A snooze that ended before awakeAt excludes nothing.
    expect(
      effectiveFilter(statements, { ...awake, awakeAt: "2030-08-01T00:00:00.000Z" }).awakeAt,
    ).toBeUndefined();
  });

  it("leave the reserved categories out of recall exactly when the namespace holds some", async () => {
    const memory = createSqliteMemory({ path: tempDbPath(), logger: () => {} });
    closers.push(() => memory.close());
    const fillers = ["a walk in the park", "bread and cheese", "the train was late", "rain again"];
    for (const namespace of ["with-graph", "without"]) {
      for (const [index, content] of fillers.entries())
        await memory.store({ key: `f${index}`, content, namespace, category: "daily" });
      await memory.store({
        key: "ferry",
        content: "the harbour ferry",
        namespace,
        category: "core",
      });
    }
    await memory.store({
      key: "t1",
      content: "harbour ferry operator",
      namespace: "with-graph",
      category: "triple",
    });
    for (const mode of ["bm25", "hybrid"] as const) {
      const keys = async (namespace: string, categories?: string[]) =>
        (await memory.recall("harbour ferry", { namespace, mode, categories })).map(
          (result) => result.key,
        );
      expect(await keys("with-graph")).toEqual(["ferry"]);
      expect(await keys("with-graph", ["triple"])).toEqual(["t1"]);
      expect(await keys("without")).toEqual(["ferry"]);
    }
  });
});
