import { describe, expect, it } from "vitest";
import type { ConformanceOptions } from "../conformance-options.js";
import { keys, nextMillisecond, useInstances } from "../fixture.js";

/** list (newest first, paging, filters) and count (agrees with list). */
export function listCountGroup(options: ConformanceOptions): void {
  describe(`${options.name}: list and count`, { timeout: options.timeoutMs ?? 60_000 }, () => {
    const instances = useInstances(options);

    it("lists newest first by updatedAt, with limit and offset", async () => {
      const memory = await instances.create();
      for (const key of ["a", "b", "c", "d"]) {
        await memory.store({ key, content: `entry ${key}` });
        await nextMillisecond();
      }
      await memory.store({ key: "a", content: "touched again" });
      expect(keys(await memory.list())).toEqual(["a", "d", "c", "b"]);
      expect(keys(await memory.list({ limit: 2 }))).toEqual(["a", "d"]);
      expect(keys(await memory.list({ limit: 2, offset: 2 }))).toEqual(["c", "b"]);
      expect((await memory.list())[0]!.score).toBeUndefined();
    });

    it("counts what list returns, for every filter", async () => {
      const memory = await instances.create();
      await memory.store({ key: "a", content: "x", category: "daily", sessionId: "s1" });
      await memory.store({ key: "b", content: "x", category: "core", sessionId: "s1" });
      await memory.store({ key: "c", content: "x", category: "conversation", sessionId: "s2" });
      await memory.store({ key: "d", content: "x", category: "core", namespace: "other" });
      await memory.markSuperseded("b", "a");
      const filters = [
        {},
        { categories: ["core"] },
        { sessionId: "s1" },
        { namespace: "other" },
        { includeSuperseded: true },
        { categories: ["daily", "conversation"] },
      ];
      for (const filter of filters) {
        expect(await memory.count(filter)).toBe(
          (await memory.list({ ...filter, limit: 1000 })).length,
        );
      }
      expect(await memory.count()).toBe(2);
      expect(await memory.count({ categories: ["daily", "conversation"] })).toBe(2);
    });

    it("returns topCore by importance among live core entries of the namespace", async () => {
      const memory = await instances.create();
      await memory.store({
        key: "low",
        content: "a preference",
        category: "core",
        importance: 0.3,
      });
      await memory.store({
        key: "high",
        content: "a critical rule",
        category: "core",
        importance: 0.95,
      });
      await memory.store({ key: "mid", content: "a fact", category: "core", importance: 0.6 });
      await memory.store({ key: "daily", content: "daily log", category: "daily", importance: 1 });
      await memory.store({ key: "gone", content: "old rule", category: "core", importance: 1 });
      await memory.store({
        key: "elsewhere",
        content: "other ns",
        category: "core",
        importance: 1,
        namespace: "x",
      });
      await memory.markSuperseded("gone", "high");
      expect(keys(await memory.topCore(2))).toEqual(["high", "mid"]);
      expect(keys(await memory.topCore(10))).toEqual(["high", "mid", "low"]);
      expect(await memory.topCore(0)).toEqual([]);
    });
  });
}
