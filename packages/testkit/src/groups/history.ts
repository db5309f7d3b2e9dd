import { type Memory, MemoryError, type RetrievalSettings, versionKey } from "@memory/api";
import { describe, expect, it } from "vitest";
import type { ConformanceOptions } from "../conformance-options.js";
import { caught, collect, keys, useInstances } from "../fixture.js";

/** Contents of a history, newest first. */
const contents = (entries: readonly { content: string }[]) => entries.map((entry) => entry.content);

/** The error's code, and a failure that shows the error when it is not a `MemoryError`. */
function codeOf(error: unknown): string {
  expect(MemoryError.isInstance(error), String(error)).toBe(true);
  return (error as MemoryError).code;
}

/**
 * Repair and history (`unsupersede`, `history`, versions kept by a same-key `store`), the rules of
 * `@memory/core`'s facade: every backend declares this group and none may skip it. The versions
 * are ordinary superseded entries under `<key>::history:<n>`, so the group also pins what every
 * other operation (recall, list, count, export, forget) does with them.
 */
export function historyGroup(options: ConformanceOptions): void {
  describe(`${options.name}: history`, { timeout: options.timeoutMs ?? 60_000 }, () => {
    const instances = useInstances(options);
    const open = (settings?: Partial<RetrievalSettings>): Promise<Memory> =>
      instances.create(undefined, settings);

    it("keeps the previous content of a key as a superseded version, newest first", async () => {
      const memory = await open();
      await memory.store({ key: "city", content: "The user lives in Berlin" });
      await memory.store({ key: "city", content: "The user lives in Lisbon" });
      await memory.store({ key: "city", content: "The user lives in Porto" });
      const history = await memory.history("city");
      expect(contents(history)).toEqual([
        "The user lives in Porto",
        "The user lives in Lisbon",
        "The user lives in Berlin",
      ]);
      expect(history[0]).toMatchObject({ key: "city" });
      expect(history[0]!.supersededBy).toBeUndefined();
      for (const version of history.slice(1)) {
        expect(version.key).toMatch(/^city::history:\d+$/);
        expect(version.supersededBy).toBe("city");
      }
      // Strictly newer first, even for stores within one millisecond.
      const times = history.map((entry) => entry.updatedAt);
      expect([...times].sort().reverse()).toEqual(times);
      expect(new Set(times).size).toBe(3);
      expect((await memory.get("city"))!.content).toBe("The user lives in Porto");
    });

    it("keeps no version when the same content is stored again or only metadata changes", async () => {
      const memory = await open();
      await memory.store({ key: "tea", content: "The user drinks green tea" });
      await memory.store({ key: "tea", content: "The user drinks green tea" });
      await memory.store({ key: "tea", content: "The user drinks green tea", importance: 0.9 });
      expect(contents(await memory.history("tea"))).toEqual(["The user drinks green tea"]);
      expect(await memory.count({ includeSuperseded: true })).toBe(1);
    });

    it("hides versions from recall, list and count unless includeSuperseded", async () => {
      const memory = await open();
      await memory.store({ key: "city", content: "The user lives in Berlin" });
      await memory.store({ key: "city", content: "The user lives in Lisbon" });
      expect(keys(await memory.recall("Berlin", { mode: "bm25" }))).toEqual([]);
      expect(keys(await memory.list())).toEqual(["city"]);
      expect(await memory.count()).toBe(1);
      const shown = { includeSuperseded: true };
      expect(keys(await memory.recall("Berlin", { ...shown, mode: "bm25" }))).toEqual([
        versionKey("city", 1),
      ]);
      expect(keys(await memory.list(shown)).sort()).toEqual(["city", versionKey("city", 1)]);
      expect(await memory.count(shown)).toBe(2);
    });

    it("keeps at most history_versions versions, dropping the oldest", async () => {
      const memory = await open({ historyVersions: 2 });
      for (const n of [1, 2, 3, 4, 5]) await memory.store({ key: "k", content: `value ${n}` });
      expect(contents(await memory.history("k"))).toEqual(["value 5", "value 4", "value 3"]);
      expect(await memory.count({ includeSuperseded: true })).toBe(3);
    });

    it("keeps no version with history_versions = 0", async () => {
      const memory = await open({ historyVersions: 0 });
      await memory.store({ key: "k", content: "value 1" });
      await memory.store({ key: "k", content: "value 2" });
      expect(contents(await memory.history("k"))).toEqual(["value 2"]);
      expect(await memory.count({ includeSuperseded: true })).toBe(1);
    });

    it("keeps a version's category, importance and session, in the key's namespace", async () => {
      const memory = await open();
      const first = { key: "plan", namespace: "team", category: "daily", sessionId: "s1" };
      await memory.store({ ...first, content: "Ship on Monday", importance: 0.4 });
      await memory.store({ key: "plan", namespace: "team", content: "Ship on Friday" });
      const [current, version] = await memory.history("plan", { namespace: "team" });
      expect(current).toMatchObject({ content: "Ship on Friday", category: "core" });
      expect(version).toMatchObject({
        content: "Ship on Monday",
        category: "daily",
        sessionId: "s1",
        importance: 0.4,
        namespace: "team",
      });
      expect(await memory.history("plan")).toEqual([]);
    });

    it("refuses to store under a version's key with INVALID_INPUT", async () => {
      const memory = await open();
      for (const key of ["city::history:1", "city::history:100"]) {
        const error = await caught(() => memory.store({ key, content: "forged" }));
        expect(codeOf(error)).toBe("INVALID_INPUT");
        expect((error as Error).message).toContain("reserved");
      }
      // Not the reserved form: ordinary keys.
      for (const key of ["city::history:0", "city::history:101", "city::history:x"])
        await memory.store({ key, content: "fine" });
      expect(await memory.count()).toBe(3);
    });

    it("reaches the versions of the longest key", async () => {
      const memory = await open();
      const key = "k".repeat(1024);
      await memory.store({ key, content: "first" });
      await memory.store({ key, content: "second" });
      expect(contents(await memory.history(key))).toEqual(["second", "first"]);
      expect((await memory.get(versionKey(key, 1)))!.content).toBe("first");
    });

    it("forgets a key's versions with the key", async () => {
      const memory = await open();
      await memory.store({ key: "city", content: "The user lives in Berlin" });
      await memory.store({ key: "city", content: "The user lives in Lisbon" });
      await memory.store({ key: "other", content: "The user likes tea" });
      expect(await memory.forget("city")).toBe(true);
      expect(await memory.history("city")).toEqual([]);
      expect(keys(await memory.list({ includeSuperseded: true }))).toEqual(["other"]);
    });

    it("exports versions and imports them back with their history", async () => {
      const source = await open();
      await source.store({ key: "city", content: "The user lives in Berlin" });
      await source.store({ key: "city", content: "The user lives in Lisbon" });
      const exported = await collect(source.export());
      expect(exported.map((entry) => entry.key).sort()).toEqual(["city", versionKey("city", 1)]);
      const target = await open();
      const report = await target.importEntries(exported);
      expect(report).toMatchObject({ imported: 2, rejected: [] });
      const strip = (entries: { key: string; content: string; updatedAt: string }[]) =>
        entries.map(({ key, content, updatedAt }) => ({ key, content, updatedAt }));
      expect(strip(await target.history("city"))).toEqual(strip(await source.history("city")));
    });

    it("brings an earlier content back by storing it, keeping the replaced one", async () => {
      const memory = await open();
      for (const content of ["tabs", "spaces", "tabs"]) await memory.store({ key: "k", content });
      expect(contents(await memory.history("k"))).toEqual(["tabs", "spaces", "tabs"]);
    });

    it("unsupersede makes a superseded entry current again, in its namespace only", async () => {
      const memory = await open();
      for (const namespace of ["default", "other"]) {
        await memory.store({ key: "old", content: "The user lives in Berlin", namespace });
        await memory.store({ key: "new", content: "The user moved to Lisbon", namespace });
        await memory.markSuperseded("old", "new", { namespace });
      }
      expect(keys(await memory.recall("Berlin", { mode: "bm25" }))).toEqual([]);
      const restored = await memory.unsupersede("old");
      expect(restored).toMatchObject({ key: "old", content: "The user lives in Berlin" });
      expect(restored.supersededBy).toBeUndefined();
      expect((await memory.get("old"))!.supersededBy).toBeUndefined();
      expect(keys(await memory.recall("Berlin", { mode: "bm25" }))).toEqual(["old"]);
      expect((await memory.get("old", { namespace: "other" }))!.supersededBy).toBe("new");
    });

    it("unsupersede refuses a missing entry, a current one and a version's key", async () => {
      const memory = await open();
      await memory.store({ key: "live", content: "The user drinks tea" });
      await memory.store({ key: "live", content: "The user drinks coffee" });
      const before = await collect(memory.export());
      expect(codeOf(await caught(() => memory.unsupersede("missing")))).toBe("NOT_FOUND");
      expect(codeOf(await caught(() => memory.unsupersede("live")))).toBe("CONFLICT");
      expect(codeOf(await caught(() => memory.unsupersede(versionKey("live", 1))))).toBe(
        "INVALID_INPUT",
      );
      expect(codeOf(await caught(() => memory.unsupersede("live", { namespace: "other" })))).toBe(
        "NOT_FOUND",
      );
      expect(await collect(memory.export())).toEqual(before);
    });

    it("history of a version's key is INVALID_INPUT; of an unknown key, empty", async () => {
      const memory = await open();
      expect(await memory.history("nothing")).toEqual([]);
      expect(codeOf(await caught(() => memory.history(versionKey("k", 1))))).toBe("INVALID_INPUT");
    });
  });
}
