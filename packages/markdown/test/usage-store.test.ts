import { spawn } from "node:child_process";
import { appendFileSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { UsageEvent } from "@memory/api";
import { describe, expect, it } from "vitest";
import { STATE_DIR } from "../src/index.js";
import { tempDir } from "./helpers.js";
import { countingUpdate, openDriver, record, surfaced, upserts } from "./usage-driver.js";

const used = (recallId: string, key: string, at = "2026-11-20T10:01:00.000Z"): UsageEvent => ({
  ...surfaced(recallId, key, at),
  kind: "used",
});

describe("usage storage of a memory tree", () => {
  it("appends events, updates each key's record once with its events in order, and reads them", async () => {
    const { driver, root, close } = await openDriver();
    try {
      const { usage } = driver;
      await driver.write(upserts(record("a", "one"), record("b", "two")));
      await usage.record(
        [surfaced("r1", "a"), surfaced("r1", "b"), surfaced("r1", "a")],
        (current, events) => {
          expect(current).toBeUndefined();
          return countingUpdate(current, events);
        },
      );
      await usage.record([used("r1", "a")], countingUpdate);
      expect((await usage.events("default", "r1")).map((event) => [event.key, event.kind])).toEqual(
        [
          ["a", "surfaced"],
          ["b", "surfaced"],
          ["a", "surfaced"],
          ["a", "used"],
        ],
      );
      expect(await usage.events("other", "r1")).toEqual([]);
      const [a, b, none] = await usage.read("default", ["a", "b", "none"]);
      expect(a!.stats).toMatchObject({ surfaced: 2, used: 1 });
      expect(b!.stats).toMatchObject({ surfaced: 1, used: 0 });
      expect(none).toBeUndefined();
      expect(await usage.countEvents()).toBe(4);
      // Both files live in the state directory, beside the lock and the leases.
      expect(existsSync(join(root, STATE_DIR, "usage-events.jsonl"))).toBe(true);
      expect(existsSync(join(root, STATE_DIR, "usage.json"))).toBe(true);
    } finally {
      await close();
    }
  });

  it("writes nothing when an update throws", async () => {
    const { driver, close } = await openDriver();
    try {
      await driver.write(upserts(record("a", "one")));
      await expect(
        driver.usage.record([surfaced("r1", "a")], () => {
          throw new Error("refused");
        }),
      ).rejects.toThrow("refused");
      expect(await driver.usage.countEvents()).toBe(0);
      expect(await driver.usage.read("default", ["a"])).toEqual([undefined]);
    } finally {
      await close();
    }
  });

  it("pages records by namespace then key, and put replaces them (import)", async () => {
    const { driver, close } = await openDriver();
    try {
      const { usage } = driver;
      await driver.write(
        upserts(
          record("a", "one"),
          record("b", "two"),
          record("a", "three", { namespace: "team" }),
        ),
      );
      await usage.record(
        [surfaced("r1", "b"), surfaced("r1", "a"), surfaced("r2", "a", undefined, "team")],
        countingUpdate,
      );
      const [stored] = await usage.read("default", ["a"]);
      await usage.put([{ ...stored!, stats: { ...stored!.stats, used: 7 } }]);
      expect((await usage.read("default", ["a"]))[0]!.stats.used).toBe(7);
      const order = (list: { namespace: string; key: string }[]) =>
        list.map(({ namespace, key }) => `${namespace}/${key}`);
      expect(order(await usage.scan(undefined, undefined, 10))).toEqual([
        "default/a",
        "default/b",
        "team/a",
      ]);
      expect(order(await usage.scan(undefined, { namespace: "default", key: "a" }, 1))).toEqual([
        "default/b",
      ]);
      expect(order(await usage.scan("team", undefined, 10))).toEqual(["team/a"]);
      // Records of absent entries are not stored.
      await usage.put([{ ...stored!, key: "absent" }]);
      expect(await usage.read("default", ["absent"])).toEqual([undefined]);
    } finally {
      await close();
    }
  });

  it("prunes events before a time, then the oldest beyond a count; records stay", async () => {
    const { driver, root, close } = await openDriver();
    try {
      const { usage } = driver;
      const at = (day: number) => `2026-11-${String(day).padStart(2, "0")}T10:00:00.000Z`;
      await driver.write(upserts(record("a", "one")));
      await usage.record(
        [1, 2, 3, 4, 5].map((day) => surfaced(`r${day}`, "a", at(day))),
        countingUpdate,
      );
      // A line cut short by a crash is no event: skipped when read, gone once pruned.
      appendFileSync(join(root, STATE_DIR, "usage-events.jsonl"), '{"recallId":"r6","na');
      await usage.record([surfaced("r7", "a", at(7))], countingUpdate);
      expect(await usage.countEvents()).toBe(6);
      expect(await usage.events("default", "r7")).toHaveLength(1);
      expect(await usage.prune(at(3), 1_000)).toBe(2);
      expect(await usage.prune(at(1), 2)).toBe(2);
      expect(
        (await usage.events("default", "r5")).length + (await usage.events("default", "r7")).length,
      ).toBe(2);
      expect(await usage.countEvents()).toBe(2);
      expect(readFileSync(join(root, STATE_DIR, "usage-events.jsonl"), "utf8")).not.toContain(
        '"r6"',
      );
      expect(await usage.prune(at(1), 2)).toBe(0);
      expect((await usage.read("default", ["a"]))[0]!.stats.surfaced).toBe(6);
    } finally {
      await close();
    }
  });

  it("appends events of keys that are not stored entries, and keeps no record of them", async () => {
    const { driver, close } = await openDriver();
    try {
      const { usage } = driver;
      await driver.write(upserts(record("a", "one")));
      await usage.record([surfaced("r1", "a"), surfaced("r1", "MEMORY.md#notes")], countingUpdate);
      expect((await usage.events("default", "r1")).map((event) => event.key)).toEqual([
        "a",
        "MEMORY.md#notes",
      ]);
      expect(await usage.read("default", ["a", "MEMORY.md#notes"])).toEqual([
        expect.anything(),
        undefined,
      ]);
    } finally {
      await close();
    }
  });

  it("removes a deleted entry's record and events, by a write batch or a bulk deletion", async () => {
    const { driver, close } = await openDriver();
    try {
      const { usage } = driver;
      await driver.write(upserts(record("a", "one"), record("b", "two"), record("c", "three")));
      await usage.record(
        [surfaced("r1", "a"), surfaced("r1", "b"), surfaced("r1", "c")],
        countingUpdate,
      );
      await driver.write({ ...upserts(), deletes: [{ namespace: "default", key: "a" }] });
      expect((await usage.events("default", "r1")).map((event) => event.key)).toEqual(["b", "c"]);
      expect(await usage.read("default", ["a", "b"])).toEqual([undefined, expect.anything()]);
      await driver.deleteWhere({
        namespace: "default",
        categories: undefined,
        olderThan: undefined,
        superseded: undefined,
        keepNewest: 0,
        dryRun: false,
      });
      expect(await usage.countEvents()).toBe(0);
      expect(await usage.scan(undefined, undefined, 10)).toEqual([]);
    } finally {
      await close();
    }
  });
});

describe("usage recorded by two processes over one tree", () => {
  it("loses no count and no event", async () => {
    const root = tempDir();
    const count = 100;
    const fixture = fileURLToPath(new URL("./fixtures/recorder.ts", import.meta.url));
    {
      const { driver, close } = await openDriver({ root });
      await driver.write(upserts(record("shared", "The entry both processes surface")));
      await close();
    }
    let ready = 0;
    const run = (prefix: string) =>
      new Promise<{ code: number | null; stderr: string }>((resolve) => {
        const child = spawn(
          process.execPath,
          ["--import", "tsx", fixture, root, prefix, String(count)],
          { stdio: ["ignore", "pipe", "pipe"] },
        );
        let stderr = "";
        child.stdout.on("data", () => {
          // Both opened: open the gate so that their records contend for the lock.
          if (++ready === 2) writeFileSync(join(root, "go"), "");
        });
        child.stderr.on("data", (chunk) => {
          stderr += chunk;
        });
        child.on("close", (code) => resolve({ code, stderr }));
      });
    const results = await Promise.all([run("one"), run("two")]);
    for (const result of results) expect(result).toEqual({ code: 0, stderr: "" });
    const { driver, close } = await openDriver({ root });
    try {
      expect((await driver.usage.read("default", ["shared"]))[0]!.stats.surfaced).toBe(2 * count);
      expect(await driver.usage.countEvents()).toBe(2 * count);
    } finally {
      await close();
    }
  }, 600_000);
});
