import { MemoryError } from "@memory/api";
import { describe, expect, it } from "vitest";
import type { ConformanceOptions } from "../conformance-options.js";
import { caught, nextMillisecond, useInstances } from "../fixture.js";

/** CRUD and upsert semantics: identity is (namespace, key). */
export function crudGroup(options: ConformanceOptions): void {
  describe(`${options.name}: crud`, { timeout: options.timeoutMs ?? 60_000 }, () => {
    const instances = useInstances(options);

    it("stores an entry and gets it back with every field", async () => {
      const memory = await instances.create();
      const stored = await memory.store({
        key: "lang",
        content: "User prefers TypeScript",
        category: "core",
        sessionId: "s1",
        importance: 0.9,
      });
      expect(stored.id).toMatch(/^[0-9a-f-]{36}$/);
      const got = await memory.get("lang");
      expect(got).toMatchObject({
        key: "lang",
        content: "User prefers TypeScript",
        category: "core",
        namespace: "default",
        sessionId: "s1",
        importance: 0.9,
      });
      expect(got!.id).toBe(stored.id);
      expect(got!.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(got!.score).toBeUndefined();
      expect(got!.embedding).toBeUndefined();
    });

    it("defaults the category to core and the namespace to default", async () => {
      const memory = await instances.create();
      const stored = await memory.store({ key: "k", content: "v" });
      expect(stored.category).toBe("core");
      expect(stored.namespace).toBe("default");
    });

    it("keeps id and createdAt but changes content and updatedAt when a key is stored again", async () => {
      const memory = await instances.create();
      const first = await memory.store({
        key: "k",
        content: "first",
        category: "daily",
        importance: 0.2,
      });
      await nextMillisecond();
      const second = await memory.store({
        key: "k",
        content: "second",
        category: "core",
        importance: 0.8,
      });
      expect(second.id).toBe(first.id);
      expect(second.createdAt).toBe(first.createdAt);
      expect(second.updatedAt > first.updatedAt).toBe(true);
      const got = await memory.get("k");
      expect(got).toMatchObject({
        content: "second",
        category: "core",
        importance: 0.8,
        createdAt: first.createdAt,
        updatedAt: second.updatedAt,
      });
      expect(await memory.count()).toBe(1);
    });

    it("treats the same key in two namespaces as two entries", async () => {
      const memory = await instances.create();
      const a = await memory.store({ key: "k", content: "in a", namespace: "a" });
      const b = await memory.store({ key: "k", content: "in b", namespace: "b" });
      expect(a.id).not.toBe(b.id);
      expect((await memory.get("k", { namespace: "a" }))!.content).toBe("in a");
      expect((await memory.get("k", { namespace: "b" }))!.content).toBe("in b");
      expect(await memory.get("k")).toBeNull();
    });

    it("returns null for a missing key and false when forgetting it", async () => {
      const memory = await instances.create();
      expect(await memory.get("missing")).toBeNull();
      expect(await memory.forget("missing")).toBe(false);
    });

    it("forgets one entry and leaves the others", async () => {
      const memory = await instances.create();
      await memory.store({ key: "a", content: "alpha" });
      await memory.store({ key: "b", content: "beta" });
      expect(await memory.forget("a")).toBe(true);
      expect(await memory.get("a")).toBeNull();
      expect((await memory.get("b"))!.content).toBe("beta");
      expect(await memory.recall("alpha", { mode: "bm25" })).toEqual([]);
    });

    it("forgets only in the given namespace", async () => {
      const memory = await instances.create();
      await memory.store({ key: "k", content: "x", namespace: "a" });
      await memory.store({ key: "k", content: "x", namespace: "b" });
      expect(await memory.forget("k", { namespace: "a" })).toBe(true);
      expect(await memory.get("k", { namespace: "b" })).not.toBeNull();
    });

    it("accepts custom categories", async () => {
      const memory = await instances.create();
      await memory.store({ key: "k", content: "project note", category: "project-notes_2" });
      expect((await memory.get("k"))!.category).toBe("project-notes_2");
    });

    it("rejects an importance outside 0..1 with INVALID_INPUT", async () => {
      const memory = await instances.create();
      const error = await caught(() => memory.store({ key: "k", content: "x", importance: 1.5 }));
      expect(MemoryError.hasCode(error, "INVALID_INPUT")).toBe(true);
      expect(await memory.get("k")).toBeNull();
    });

    it("returns the stored embedding only when asked", async () => {
      const memory = await instances.create();
      if (!memory.capabilities.vectorSearch) return;
      await memory.store({ key: "k", content: "vector please" });
      await memory.flush();
      expect((await memory.get("k"))!.embedding).toBeUndefined();
    });
  });
}
