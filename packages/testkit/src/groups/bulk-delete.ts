import { type ImportEntry, type Memory, MemoryError } from "@memory/api";
import { describe, expect, it } from "vitest";
import type { ConformanceOptions } from "../conformance-options.js";
import { itWith } from "../declarations.js";
import { caught, collect, keys, useInstances } from "../fixture.js";
import { createTestEmbedder } from "../test-embedder.js";

/** `2024-01-<day>T00:00:00.000Z`: entries get their updatedAt through importEntries. */
const day = (n: number) => `2024-01-${String(n).padStart(2, "0")}T00:00:00.000Z`;

function entry(key: string, category: string, updated: number, namespace = "default"): ImportEntry {
  return {
    key,
    content: `${category} note ${key} zephyrine`,
    category,
    namespace,
    createdAt: day(1),
    updatedAt: day(updated),
  };
}

async function seed(memory: Memory, entries: ImportEntry[]): Promise<void> {
  const report = await memory.importEntries(entries);
  expect(report.rejected).toEqual([]);
}

async function allKeys(memory: Memory, namespace: string): Promise<string[]> {
  const entries = await collect(memory.export({ namespace }));
  return keys(entries).sort();
}

/** deleteEntries: the filter, the retention floor, dry runs and what readers see afterwards. */
export function bulkDeleteGroup(options: ConformanceOptions): void {
  describe(`${options.name}: bulk delete`, { timeout: options.timeoutMs ?? 60_000 }, () => {
    const instances = useInstances(options);

    it("deletes only matching categories older than olderThan, in one namespace", async () => {
      const memory = await instances.create();
      await seed(memory, [
        entry("d1", "daily", 1, "a"),
        entry("d2", "daily", 2, "a"),
        entry("d3", "daily", 3, "a"),
        entry("d4", "daily", 4, "a"),
        entry("c1", "conversation", 1, "a"),
        entry("c5", "conversation", 5, "a"),
        entry("k1", "core", 1, "a"),
        entry("b1", "daily", 1, "b"),
        entry("x1", "daily", 1),
      ]);
      const report = await memory.deleteEntries({
        namespace: "a",
        categories: ["daily", "conversation"],
        olderThan: "2024-01-03T00:00:00Z",
      });
      expect(report).toEqual({
        deleted: 3,
        byCategory: {
          daily: { eligible: 2, deleted: 2 },
          conversation: { eligible: 1, deleted: 1 },
        },
      });
      expect(await allKeys(memory, "a")).toEqual(["c5", "d3", "d4", "k1"]);
      expect(await allKeys(memory, "b")).toEqual(["b1"]);
      expect(await allKeys(memory, "default")).toEqual(["x1"]);
    });

    it("targets the default namespace when none is given", async () => {
      const memory = await instances.create();
      await seed(memory, [entry("x1", "daily", 1), entry("a1", "daily", 1, "a")]);
      expect((await memory.deleteEntries({})).deleted).toBe(1);
      expect(await memory.count()).toBe(0);
      expect(await memory.count({ namespace: "a" })).toBe(1);
    });

    it("keeps the newest keepNewest entries of each namespace and category across allNamespaces", async () => {
      const memory = await instances.create();
      await seed(memory, [
        ...[1, 2, 3, 4, 5].map((n) => entry(`ad${n}`, "daily", n, "a")),
        ...[1, 2, 3].map((n) => entry(`ac${n}`, "conversation", n, "a")),
        ...[1, 2, 3, 4].map((n) => entry(`bd${n}`, "daily", n, "b")),
        entry("bc1", "conversation", 1, "b"),
        entry("ak1", "core", 1, "a"),
      ]);
      const report = await memory.deleteEntries({
        allNamespaces: true,
        categories: ["daily", "conversation"],
        olderThan: "2024-02-01T00:00:00Z",
        keepNewest: 2,
      });
      expect(report).toEqual({
        deleted: 6,
        byCategory: {
          daily: { eligible: 9, deleted: 5 },
          conversation: { eligible: 4, deleted: 1 },
        },
      });
      expect(await allKeys(memory, "a")).toEqual(["ac2", "ac3", "ad4", "ad5", "ak1"]);
      expect(await allKeys(memory, "b")).toEqual(["bc1", "bd3", "bd4"]);
    });

    it("counts the floor over every entry of the category, whatever the other conditions", async () => {
      const memory = await instances.create();
      await seed(
        memory,
        [1, 2, 3, 4, 5].map((n) => entry(`d${n}`, "daily", n)),
      );
      // Only d1 and d2 are old enough; the 4 newest (d5..d2) are kept whatever their age.
      const report = await memory.deleteEntries({ olderThan: day(3), keepNewest: 4 });
      expect(report).toEqual({ deleted: 1, byCategory: { daily: { eligible: 2, deleted: 1 } } });
      expect(await allKeys(memory, "default")).toEqual(["d2", "d3", "d4", "d5"]);
      // A floor larger than the category deletes nothing, and still reports what was eligible.
      expect(await memory.deleteEntries({ keepNewest: 10 })).toEqual({
        deleted: 0,
        byCategory: { daily: { eligible: 4, deleted: 0 } },
      });
      // keepNewest 0 is no floor at all.
      expect((await memory.deleteEntries({ keepNewest: 0 })).deleted).toBe(4);
    });

    it("breaks updatedAt ties of the floor by key, the greater key counting as newer", async () => {
      const memory = await instances.create();
      await seed(memory, [
        entry("t-a", "daily", 1),
        entry("t-b", "daily", 1),
        entry("t-c", "daily", 1),
      ]);
      expect((await memory.deleteEntries({ keepNewest: 1 })).deleted).toBe(2);
      expect(await allKeys(memory, "default")).toEqual(["t-c"]);
    });

    it("selects superseded or current entries with superseded true or false", async () => {
      const memory = await instances.create();
      await seed(memory, [
        entry("old", "core", 1),
        entry("new", "core", 2),
        entry("other", "core", 3),
      ]);
      expect(await memory.markSuperseded("old", "new")).toBe(true);
      expect(await memory.deleteEntries({ superseded: true })).toEqual({
        deleted: 1,
        byCategory: { core: { eligible: 1, deleted: 1 } },
      });
      expect(await memory.get("old")).toBeNull();
      await seed(memory, [entry("older", "core", 1)]);
      await memory.markSuperseded("older", "new");
      expect((await memory.deleteEntries({ superseded: false, keepNewest: 1 })).deleted).toBe(1);
      expect(await allKeys(memory, "default")).toEqual(["older", "other"]);
    });

    it("reports the same numbers on a dry run and deletes nothing", async () => {
      const memory = await instances.create();
      await seed(memory, [
        ...[1, 2, 3, 4].map((n) => entry(`d${n}`, "daily", n)),
        ...[1, 2].map((n) => entry(`c${n}`, "conversation", n, "other")),
      ]);
      const filter = { allNamespaces: true, olderThan: day(4), keepNewest: 1 };
      const dry = await memory.deleteEntries({ ...filter, dryRun: true });
      expect(dry).toEqual({
        deleted: 4,
        byCategory: {
          daily: { eligible: 3, deleted: 3 },
          conversation: { eligible: 2, deleted: 1 },
        },
      });
      expect((await collect(memory.export())).length).toBe(6);
      expect(await memory.deleteEntries(filter)).toEqual(dry);
      expect((await collect(memory.export())).length).toBe(2);
    });

    it("removes deleted entries from get, list, count, recall and export", async () => {
      const memory = await instances.create();
      await seed(memory, [entry("gone", "daily", 1), entry("kept", "core", 1)]);
      // Recall once first, so a cached result would show if it survived the delete.
      expect(keys(await memory.recall("zephyrine", { mode: "bm25", minScore: 0 })).sort()).toEqual([
        "gone",
        "kept",
      ]);
      await memory.deleteEntries({ categories: ["daily"] });
      expect(await memory.get("gone")).toBeNull();
      expect(keys(await memory.list())).toEqual(["kept"]);
      expect(await memory.count()).toBe(1);
      expect(keys(await memory.recall("zephyrine", { mode: "bm25", minScore: 0 }))).toEqual([
        "kept",
      ]);
      expect(keys(await memory.recall("", { minScore: 0 }))).toEqual(["kept"]);
      expect(await allKeys(memory, "default")).toEqual(["kept"]);
    });

    itWith(options, "vectorSearch")("removes deleted entries from vector recall", async () => {
      const memory = await instances.createVector(createTestEmbedder());
      await memory.store({
        key: "car",
        content: "My car needs new tyres before winter",
        category: "daily",
      });
      await memory.store({ key: "coffee", content: "Drinks two espresso shots every morning" });
      await memory.flush();
      expect((await memory.recall("automobile maintenance", { mode: "embedding" }))[0]?.key).toBe(
        "car",
      );
      expect((await memory.deleteEntries({ categories: ["daily"] })).deleted).toBe(1);
      const after = await memory.recall("automobile maintenance", {
        mode: "embedding",
        minScore: 0,
      });
      expect(keys(after)).not.toContain("car");
    });

    it("refuses inconsistent filters with INVALID_INPUT and deletes nothing", async () => {
      const memory = await instances.create();
      await seed(memory, [entry("d1", "daily", 1), entry("a1", "daily", 1, "a")]);
      const refused = [
        { namespace: "a", allNamespaces: true },
        { categories: [] },
        { categories: ["not a category"] },
        { keepNewest: -1 },
        { keepNewest: 1.5 },
        { olderThan: "yesterday" },
        { olderThan: "2024-01-01 10:00:00" },
      ];
      for (const filter of refused) {
        const error = await caught(() => memory.deleteEntries(filter));
        expect(MemoryError.hasCode(error, "INVALID_INPUT"), JSON.stringify(filter)).toBe(true);
      }
      expect((await collect(memory.export())).length).toBe(2);
    });
  });
}
