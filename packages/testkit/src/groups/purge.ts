import { describe, expect, it } from "vitest";
import type { ConformanceOptions } from "../conformance-options.js";
import { keys, useInstances } from "../fixture.js";

/** purgeNamespace and purgeSession remove exactly what they name. */
export function purgeGroup(options: ConformanceOptions): void {
  describe(`${options.name}: purge`, { timeout: options.timeoutMs ?? 60_000 }, () => {
    const instances = useInstances(options);

    it("purges a namespace and nothing else", async () => {
      const memory = await instances.create();
      for (let i = 0; i < 5; i++)
        await memory.store({ key: `a${i}`, content: "purge me", namespace: "a" });
      await memory.store({ key: "b0", content: "keep me", namespace: "b" });
      await memory.store({ key: "d0", content: "keep me too" });
      expect(await memory.purgeNamespace("a")).toBe(5);
      expect(await memory.count({ namespace: "a" })).toBe(0);
      expect(await memory.count({ namespace: "b" })).toBe(1);
      expect(await memory.count()).toBe(1);
      expect(await memory.recall("purge", { namespace: "a", mode: "bm25" })).toEqual([]);
      expect(await memory.purgeNamespace("a")).toBe(0);
    });

    it("purges a session in one namespace, or in all when none is given", async () => {
      const memory = await instances.create();
      await memory.store({ key: "x1", content: "turn", sessionId: "s1", namespace: "a" });
      await memory.store({ key: "x2", content: "turn", sessionId: "s1", namespace: "b" });
      await memory.store({ key: "x3", content: "turn", sessionId: "s2", namespace: "a" });
      expect(await memory.purgeSession("s1", { namespace: "a" })).toBe(1);
      expect(keys(await memory.list({ namespace: "b" }))).toEqual(["x2"]);
      await memory.store({ key: "x4", content: "turn", sessionId: "s1", namespace: "a" });
      expect(await memory.purgeSession("s1")).toBe(2);
      expect(keys(await memory.list({ namespace: "a" }))).toEqual(["x3"]);
      expect(await memory.count({ namespace: "b" })).toBe(0);
    });
  });
}
