import {
  type ImportEntry,
  isVersionKey,
  type MemoryEntry,
  MemoryError,
  versionKey,
} from "@memory/api";
import { describe, expect, it } from "vitest";
import type { ConformanceOptions } from "../conformance-options.js";
import { collect, useInstances } from "../fixture.js";

const strip = ({ score: _s, explain: _e, embedding: _m, ...rest }: MemoryEntry) => rest;
const byIdentity = (a: MemoryEntry, b: MemoryEntry) =>
  a.namespace === b.namespace ? (a.key < b.key ? -1 : 1) : a.namespace < b.namespace ? -1 : 1;

async function* generate(count: number): AsyncIterable<ImportEntry> {
  for (let i = 0; i < count; i++) {
    yield {
      key: `bulk-${i}`,
      content: `bulk entry ${i} about topic ${i % 97}`,
      category: i % 3 === 0 ? "core" : "daily",
      namespace: i % 2 === 0 ? "even" : "odd",
      sessionId: `s${i % 10}`,
    };
  }
}

/** Export streams everything (oldest first); import is an idempotent upsert; round trips are exact. */
export function exportImportGroup(options: ConformanceOptions): void {
  const bulk = options.bulkSize ?? 10_000;
  describe(`${options.name}: export and import`, {
    timeout: Math.max(options.timeoutMs ?? 60_000, 180_000),
  }, () => {
    const instances = useInstances(options);

    it("round-trips entries exactly into a fresh store (ids, timestamps, supersession)", async () => {
      const source = await instances.create();
      await source.store({
        key: "a",
        content: "alpha 🚀 記憶",
        category: "core",
        importance: 0.5,
        sessionId: "s",
      });
      await source.store({ key: "b", content: "beta", category: "daily", namespace: "other" });
      await source.store({ key: "c", content: "gamma", category: "custom_cat" });
      await source.markSuperseded("a", "c");
      const exported = await collect(source.export());
      expect(exported).toHaveLength(3);
      const target = await instances.create();
      const report = await target.importEntries(exported);
      expect(report).toEqual({ imported: 3, rejected: [] });
      const again = await collect(target.export());
      expect(again.map(strip).sort(byIdentity)).toEqual(exported.map(strip).sort(byIdentity));
    });

    it("exports every namespace by default, oldest first, and filters when asked", async () => {
      const memory = await instances.create();
      await memory.importEntries([
        {
          key: "second",
          content: "x",
          namespace: "a",
          createdAt: "2026-01-02T00:00:00.000Z",
          updatedAt: "2026-01-02T00:00:00.000Z",
        },
        {
          key: "first",
          content: "x",
          namespace: "b",
          createdAt: "2026-01-01T00:00:00.000Z",
          updatedAt: "2026-01-01T00:00:00.000Z",
        },
        {
          key: "third",
          content: "x",
          namespace: "a",
          createdAt: "2026-01-03T00:00:00.000Z",
          updatedAt: "2026-01-03T00:00:00.000Z",
        },
      ]);
      expect((await collect(memory.export())).map((entry) => entry.key)).toEqual([
        "first",
        "second",
        "third",
      ]);
      // "Oldest" means createdAt: updating an entry does not move it in the stream.
      await memory.store({ key: "first", content: "updated last", namespace: "b" });
      const exported = (await collect(memory.export())).map((entry) => entry.key);
      // The previous content is exported too, as a kept version (the history group).
      expect(exported).toContain(versionKey("first", 1));
      expect(exported.filter((key) => !isVersionKey(key))).toEqual(["first", "second", "third"]);
      expect((await collect(memory.export({ namespace: "a" }))).map((entry) => entry.key)).toEqual([
        "second",
        "third",
      ]);
    });

    it("is idempotent on (namespace, key): importing twice changes nothing", async () => {
      const memory = await instances.create();
      const entries: ImportEntry[] = [
        {
          key: "k1",
          content: "one",
          createdAt: "2026-01-01T00:00:00.000Z",
          updatedAt: "2026-01-01T00:00:00.000Z",
        },
        {
          key: "k2",
          content: "two",
          namespace: "x",
          id: "11111111-1111-4111-8111-111111111111",
          createdAt: "2026-01-01T00:00:00.000Z",
          updatedAt: "2026-01-01T00:00:00.000Z",
        },
      ];
      await memory.importEntries(entries);
      const first = await collect(memory.export());
      await memory.importEntries(entries);
      expect(await collect(memory.export())).toEqual(first);
      expect((await memory.get("k2", { namespace: "x" }))!.id).toBe(
        "11111111-1111-4111-8111-111111111111",
      );
    });

    it("gives copies new ids when their ids belong to other entries (an export imported into another namespace)", async () => {
      const memory = await instances.create();
      await memory.store({ key: "a", content: "alpha", namespace: "team", sessionId: "s1" });
      await memory.store({ key: "b", content: "beta", namespace: "team" });
      await memory.markSuperseded("a", "b", { namespace: "team" });
      const originals = await collect(memory.export({ namespace: "team" }));
      expect(originals).toHaveLength(2);
      // What a user copying a namespace does: the same lines, only the namespace changed.
      const copies = originals.map((entry) => ({ ...entry, namespace: "copy" }));
      expect(await memory.importEntries(copies)).toEqual({ imported: 2, rejected: [] });
      expect(await collect(memory.export({ namespace: "team" }))).toEqual(originals);
      const copied = await collect(memory.export({ namespace: "copy" }));
      const byKey = (a: { key: string }, b: { key: string }) => (a.key < b.key ? -1 : 1);
      expect(copied.map(({ id: _id, ...rest }) => rest).sort(byKey)).toEqual(
        originals.map(({ id: _id, ...rest }) => ({ ...rest, namespace: "copy" })).sort(byKey),
      );
      const ids = new Set([...originals, ...copied].map((entry) => entry.id));
      expect(ids.size).toBe(4);
      // Importing the copies again changes nothing: each copy keeps the id it was given.
      expect(await memory.importEntries(copies)).toEqual({ imported: 2, rejected: [] });
      expect(await collect(memory.export({ namespace: "copy" }))).toEqual(copied);
      // The same within one namespace: another key with a taken id gets an id of its own.
      const taken = originals[0]!.id;
      expect(
        await memory.importEntries([{ key: "c", content: "gamma", namespace: "team", id: taken }]),
      ).toEqual({ imported: 1, rejected: [] });
      const third = await memory.get("c", { namespace: "team" });
      expect(third!.id).not.toBe(taken);
      expect((await memory.get(originals[0]!.key, { namespace: "team" }))!.id).toBe(taken);
    });

    it("rejects bad entries with their position and imports the rest", async () => {
      const memory = await instances.create();
      const report = await memory.importEntries([
        { key: "ok1", content: "fine" },
        { key: "", content: "empty key" },
        { key: "ok2", content: "fine too" },
        { key: "bad-cat", content: "x", category: "../etc" },
        { key: "bad-time", content: "x", createdAt: "not a time" },
      ]);
      expect(report.imported).toBe(2);
      expect(report.rejected.map((rejection) => rejection.index)).toEqual([1, 3, 4]);
      expect(report.rejected.every((rejection) => rejection.code === "INVALID_INPUT")).toBe(true);
      expect(await memory.count()).toBe(2);
    });

    it("stops when its signal aborts, keeps every entry read so far, and says it was interrupted", async () => {
      const memory = await instances.create();
      const controller = new AbortController();
      async function* entries() {
        for (let i = 0; i < 6000; i++) {
          if (i === 5500) controller.abort();
          yield { key: `k${i}`, content: `entry ${i}` };
        }
      }
      const report = await memory.importEntries(entries(), { signal: controller.signal });
      expect(report).toMatchObject({ imported: 5500, rejected: [], interrupted: true });
      expect(await memory.count()).toBe(5500);
      expect(await memory.get("k5499")).not.toBeNull();
      expect(await memory.get("k5500")).toBeNull();
    });

    it(`streams ${bulk} entries through import and export`, async () => {
      const memory = await instances.create();
      let progress = 0;
      const report = await memory.importEntries(generate(bulk), {
        onProgress: ({ done }) => (progress = done),
      });
      expect(report.imported).toBe(bulk);
      expect(progress).toBe(bulk);
      let seen = 0;
      let previous = "";
      const ids = new Set<string>();
      for await (const entry of memory.export()) {
        expect(entry.createdAt >= previous).toBe(true);
        previous = entry.createdAt;
        ids.add(`${entry.namespace}/${entry.key}`);
        seen++;
      }
      expect(seen).toBe(bulk);
      expect(ids.size).toBe(bulk);
      expect(await memory.count({ namespace: "even" })).toBe(Math.ceil(bulk / 2));
      const hits = await memory.recall("topic 42", { namespace: "even", mode: "bm25", limit: 3 });
      expect(hits.length).toBe(3);
    });

    it("copies the exported entries so callers cannot change the store", async () => {
      const memory = await instances.create();
      await memory.store({ key: "k", content: "original" });
      const [entry] = await collect(memory.export());
      entry!.content = "mutated";
      expect((await memory.get("k"))!.content).toBe("original");
      expect(MemoryError.isInstance(new Error("plain"))).toBe(false);
    });
  });
}
