import { MemoryError } from "@memory/api";
import { describe, expect, it } from "vitest";
import type { ConformanceOptions } from "../conformance-options.js";
import { caught, keys, useInstances } from "../fixture.js";

const day = 86_400_000;
const iso = (daysAgo: number) => new Date(Date.now() - daysAgo * day).toISOString();

/** Namespace, session, category and time filters, applied before limits; superseded hidden by default. */
export function filtersGroup(options: ConformanceOptions): void {
  describe(`${options.name}: filters`, { timeout: options.timeoutMs ?? 60_000 }, () => {
    const instances = useInstances(options);

    it("filters recall by namespace, session and category", async () => {
      const memory = await instances.create();
      await memory.store({
        key: "a",
        content: "topic alpha",
        namespace: "n1",
        sessionId: "s1",
        category: "daily",
      });
      await memory.store({
        key: "b",
        content: "topic alpha",
        namespace: "n1",
        sessionId: "s2",
        category: "core",
      });
      await memory.store({
        key: "c",
        content: "topic alpha",
        namespace: "n2",
        sessionId: "s1",
        category: "daily",
      });
      expect(keys(await memory.recall("topic", { namespace: "n1", mode: "bm25" })).sort()).toEqual([
        "a",
        "b",
      ]);
      expect(
        keys(await memory.recall("topic", { namespace: "n1", sessionId: "s1", mode: "bm25" })),
      ).toEqual(["a"]);
      expect(
        keys(await memory.recall("topic", { namespace: "n1", categories: ["core"], mode: "bm25" })),
      ).toEqual(["b"]);
      expect(await memory.recall("topic", { mode: "bm25" })).toEqual([]);
    });

    it("leaves reserved categories (triple) out of recall before the limit, unless named", async () => {
      const memory = await instances.create();
      // Many matching records of a reserved category must not crowd out the two memories.
      for (let i = 0; i < 40; i++)
        await memory.store({
          key: `t${i}`,
          content: `shared topic record ${i}`,
          category: "triple",
        });
      await memory.store({ key: "m1", content: "shared topic memory one" });
      await memory.store({ key: "m2", content: "shared topic memory two", category: "daily" });
      for (const mode of ["bm25", undefined] as const) {
        const found = await memory.recall("shared topic", {
          limit: 2,
          minScore: 0,
          ...(mode ? { mode } : {}),
        });
        expect(keys(found).sort(), String(mode)).toEqual(["m1", "m2"]);
      }
      expect(keys(await memory.recall("", { limit: 5 })).sort()).toEqual(["m1", "m2"]);
      const named = await memory.recall("shared topic", {
        categories: ["triple"],
        limit: 50,
        minScore: 0,
        mode: "bm25",
      });
      expect(named).toHaveLength(40);
      expect(await memory.count()).toBe(42);
    });

    it("applies filters before limits, so a rare session still gets its results", async () => {
      const memory = await instances.create();
      const entries = Array.from({ length: 300 }, (_, i) => ({
        key: `bulk${i}`,
        content: `shared topic words ${i}`,
        sessionId: "big",
      }));
      entries.push(
        { key: "rare1", content: "shared topic words rare", sessionId: "small" },
        { key: "rare2", content: "shared topic words again", sessionId: "small" },
      );
      await memory.importEntries(entries);
      for (const mode of ["bm25", "hybrid"] as const) {
        expect(
          keys(await memory.recall("shared topic", { sessionId: "small", limit: 5, mode })).sort(),
        ).toEqual(["rare1", "rare2"]);
      }
      expect(keys(await memory.list({ sessionId: "small", limit: 5 })).sort()).toEqual([
        "rare1",
        "rare2",
      ]);
    });

    it("filters by since (inclusive) and until (exclusive) on updatedAt", async () => {
      const memory = await instances.create();
      await memory.importEntries([
        { key: "old", content: "timeline event", updatedAt: iso(10), createdAt: iso(10) },
        { key: "mid", content: "timeline event", updatedAt: iso(5), createdAt: iso(5) },
        { key: "new", content: "timeline event", updatedAt: iso(1), createdAt: iso(1) },
      ]);
      const mid = (await memory.get("mid"))!.updatedAt;
      expect(keys(await memory.recall("timeline", { since: mid, mode: "bm25" })).sort()).toEqual([
        "mid",
        "new",
      ]);
      expect(keys(await memory.recall("timeline", { until: mid, mode: "bm25" }))).toEqual(["old"]);
      expect(keys(await memory.list({ since: iso(7), until: iso(3) }))).toEqual(["mid"]);
      expect(await memory.count({ since: iso(7) })).toBe(2);
      expect(keys(await memory.recall("", { since: iso(7), until: iso(3) }))).toEqual(["mid"]);
    });

    it("rejects since/until that do not parse, or since >= until, with INVALID_INPUT", async () => {
      const memory = await instances.create();
      await memory.store({ key: "k", content: "timeline" });
      // One instant for since = until: two iso(1) calls can fall on different milliseconds.
      const dayAgo = iso(1);
      for (const bad of [
        { since: "yesterday-ish" },
        { until: "not a date" },
        { since: dayAgo, until: iso(2) },
        { since: dayAgo, until: dayAgo },
        // Well formed but out of range: never reaches a database (PostgreSQL has no year 0).
        { since: "0000-06-01T00:00:00Z" },
      ]) {
        for (const call of [
          () => memory.recall("timeline", bad),
          () => memory.list(bad),
          () => memory.count(bad),
        ]) {
          const error = await caught(call);
          expect(MemoryError.hasCode(error, "INVALID_INPUT")).toBe(true);
        }
      }
    });

    it("hides superseded entries by default, everywhere, and shows them when asked", async () => {
      const memory = await instances.create();
      await memory.store({ key: "old", content: "lives in Berlin" });
      await memory.store({ key: "new", content: "lives in Lisbon now" });
      await memory.markSuperseded("old", "new");
      expect(keys(await memory.recall("lives", { mode: "bm25" }))).toEqual(["new"]);
      expect(keys(await memory.list())).toEqual(["new"]);
      expect(await memory.count()).toBe(1);
      expect(
        keys(await memory.recall("lives", { mode: "bm25", includeSuperseded: true })).sort(),
      ).toEqual(["new", "old"]);
      expect(await memory.count({ includeSuperseded: true })).toBe(2);
      expect((await memory.list({ includeSuperseded: true })).length).toBe(2);
      expect((await memory.get("old"))!.supersededBy).toBe("new");
    });

    it("rejects an invalid namespace or category filter", async () => {
      const memory = await instances.create();
      for (const bad of [
        { namespace: "a\nb" },
        { namespace: "n".repeat(257) },
        { categories: ["a/b"] },
        { namespace: "" },
        { since: "2026-01-31t00:00:00z" },
      ]) {
        const error = await caught(() => memory.list(bad));
        expect(MemoryError.hasCode(error, "INVALID_INPUT")).toBe(true);
      }
    });
  });
}
