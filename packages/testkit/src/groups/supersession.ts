import { MemoryError } from "@memory/api";
import { describe, expect, it } from "vitest";
import type { ConformanceOptions } from "../conformance-options.js";
import { caught, keys, useInstances } from "../fixture.js";

/**
 * markSuperseded keeps the old text for audit; storing the key again makes it live; an entry
 * cannot supersede itself.
 */
export function supersessionGroup(options: ConformanceOptions): void {
  describe(`${options.name}: supersession`, { timeout: options.timeoutMs ?? 60_000 }, () => {
    const instances = useInstances(options);

    it("marks the older entry superseded and keeps its text", async () => {
      const memory = await instances.create();
      await memory.store({ key: "city-1", content: "lives in Berlin" });
      await memory.store({ key: "city-2", content: "moved to Lisbon" });
      expect(await memory.markSuperseded("city-1", "city-2")).toBe(true);
      const old = await memory.get("city-1");
      expect(old).toMatchObject({ content: "lives in Berlin", supersededBy: "city-2" });
      expect(await memory.markSuperseded("missing", "city-2")).toBe(false);
    });

    it("makes a superseded key live again when new content is stored under it", async () => {
      const memory = await instances.create();
      await memory.store({ key: "city-1", content: "lives in Berlin" });
      await memory.store({ key: "city-2", content: "moved to Lisbon" });
      await memory.markSuperseded("city-1", "city-2");
      await memory.store({ key: "city-1", content: "back in Berlin again" });
      expect((await memory.get("city-1"))!.supersededBy).toBeUndefined();
      expect(keys(await memory.recall("berlin", { mode: "bm25" }))).toEqual(["city-1"]);
      expect(await memory.count()).toBe(2);
    });

    it("refuses to supersede an entry by itself with INVALID_INPUT and leaves it unchanged", async () => {
      const memory = await instances.create();
      await memory.store({ key: "a", content: "lives in Berlin" });
      await memory.store({ key: "a", content: "lives in Lisbon", namespace: "other" });
      for (const namespace of [undefined, "other"]) {
        const options = namespace === undefined ? {} : { namespace };
        const before = await memory.get("a", options);
        const error = await caught(() => memory.markSuperseded("a", "a", options));
        expect(MemoryError.hasCode(error, "INVALID_INPUT"), String(error)).toBe(true);
        expect((error as { code?: unknown }).code).toBe("INVALID_INPUT");
        const after = await memory.get("a", options);
        expect(after).toEqual(before);
        expect(after!.supersededBy).toBeUndefined();
        // Still live: recall finds it.
        expect(keys(await memory.recall("lives", { ...options, mode: "bm25" }))).toEqual(["a"]);
      }
    });

    it("refuses self-supersession even for a key that does not exist", async () => {
      const memory = await instances.create();
      const error = await caught(() => memory.markSuperseded("missing", "missing"));
      expect(MemoryError.hasCode(error, "INVALID_INPUT"), String(error)).toBe(true);
      expect(await memory.count()).toBe(0);
    });

    it("supersedes only inside the given namespace", async () => {
      const memory = await instances.create();
      await memory.store({ key: "k", content: "x", namespace: "a" });
      await memory.store({ key: "k", content: "x", namespace: "b" });
      await memory.markSuperseded("k", "k2", { namespace: "a" });
      expect((await memory.get("k", { namespace: "b" }))!.supersededBy).toBeUndefined();
    });
  });
}
