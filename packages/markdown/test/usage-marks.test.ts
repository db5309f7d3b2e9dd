import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { formatEntryLine, parseEntryLine } from "../src/index.js";
import { awakeFilter, openDriver, record, stageKeys, upserts } from "./usage-driver.js";

const KEY = { namespace: "default", key: "editor" };
const SOON = "2026-12-01T00:00:00.000Z";

describe("pins and snoozes in the entry line", () => {
  it("writes them only when set, after the other fields, and reads them back", () => {
    const metadata = { id: "x", createdAt: SOON, updatedAt: SOON };
    const plain = formatEntryLine({ key: "k", content: "c", conversation: false, metadata });
    expect(plain).not.toMatch(/pinned|snoozedUntil/);
    const marked = formatEntryLine({
      key: "k",
      content: "c",
      conversation: false,
      metadata: { snoozedUntil: SOON, pinned: true, ...metadata },
    });
    expect(marked).toBe(
      `- **k**: c <!-- memory {"id":"x","createdAt":"${SOON}","updatedAt":"${SOON}","pinned":true,"snoozedUntil":"${SOON}"} -->`,
    );
    expect(parseEntryLine(marked, false)).toMatchObject({
      metadata: { pinned: true, snoozedUntil: SOON },
    });
  });

  it("refuses a pinned field that is not a boolean, like a field of any other wrong type", () => {
    expect(parseEntryLine('- **k**: c <!-- memory {"pinned":"yes"} -->', false)).toMatch(
      /"pinned" must be a boolean/,
    );
  });

  it("pins and snoozes an entry a person marked by editing its line, and reports a bad time", async () => {
    const { driver, root, close } = await openDriver();
    try {
      writeFileSync(
        join(root, "MEMORY.md"),
        [
          "# Long-term memory",
          "",
          '- **pinned-by-hand**: The user wants short answers <!-- memory {"pinned":true} -->',
          '- **unpinned**: The user likes tea <!-- memory {"pinned":false} -->',
          `- **snoozed-by-hand**: The user is in Lisbon <!-- memory {"snoozedUntil":"${SOON}"} -->`,
          '- **bad-snooze**: The user runs <!-- memory {"snoozedUntil":"next week"} -->',
          "",
        ].join("\n"),
      );
      const keys = ["pinned-by-hand", "unpinned", "snoozed-by-hand", "bad-snooze"];
      const [pinned, unpinned, snoozed, bad] = await driver.read(
        keys.map((key) => ({ namespace: "default", key })),
      );
      expect(pinned!.pinned).toBe(true);
      expect(unpinned).not.toHaveProperty("pinned");
      expect(snoozed!.snoozedUntil).toBe(SOON);
      expect(bad).toBeDefined();
      expect(bad).not.toHaveProperty("snoozedUntil");
      expect(await driver.files.problems()).toEqual([
        expect.objectContaining({
          path: "MEMORY.md",
          line: 6,
          message: expect.stringMatching(/snoozedUntil "next week".*not snoozed/),
        }),
      ]);
    } finally {
      await close();
    }
  });
});

describe("marks in a write batch", () => {
  it("sets and clears only the marks, never updatedAt, and returns the entries as they are", async () => {
    const { driver, root, close } = await openDriver();
    try {
      await driver.write(upserts(record("editor", "The user's editor is Vim")));
      const before = (await driver.read([KEY]))[0]!;
      const pinned = await driver.write({
        ...upserts(),
        marks: [
          { ...KEY, pinned: true, snoozedUntil: SOON },
          { namespace: "default", key: "absent", pinned: true },
        ],
      });
      expect(pinned.marked).toEqual([{ ...before, pinned: true, snoozedUntil: SOON }, undefined]);
      expect(readFileSync(join(root, "MEMORY.md"), "utf8")).toContain(
        `"pinned":true,"snoozedUntil":"${SOON}"`,
      );
      // An undefined field keeps its value; null clears the snooze, false unpins.
      const kept = await driver.write({ ...upserts(), marks: [{ ...KEY, snoozedUntil: null }] });
      expect(kept.marked![0]).toEqual({ ...before, pinned: true });
      const cleared = await driver.write({ ...upserts(), marks: [{ ...KEY, pinned: false }] });
      expect(cleared.marked![0]).toEqual(before);
      expect((await driver.read([KEY]))[0]).toEqual(before);
      expect(readFileSync(join(root, "MEMORY.md"), "utf8")).not.toMatch(/pinned|snoozedUntil/);
    } finally {
      await close();
    }
  });

  it("applies marks after the batch's supersessions, in the same rewrite", async () => {
    const { driver, close } = await openDriver();
    try {
      const result = await driver.write({
        upserts: [{ entry: record("editor", "The user's editor is Vim") }],
        supersessions: [{ ...KEY, supersededBy: "editor-2", record: undefined }],
        marks: [{ ...KEY, pinned: true }],
        deletes: [],
      });
      expect(result.marked![0]).toMatchObject({ supersededBy: "editor-2", pinned: true });
    } finally {
      await close();
    }
  });

  it("keeps an entry's marks when it is stored again without them; given ones replace", async () => {
    const { driver, close } = await openDriver();
    try {
      await driver.write(upserts(record("editor", "Vim", { pinned: true, snoozedUntil: SOON })));
      await driver.write(upserts(record("editor", "Neovim")));
      expect((await driver.read([KEY]))[0]).toMatchObject({
        content: "Neovim",
        pinned: true,
        snoozedUntil: SOON,
      });
      const later = "2027-01-01T00:00:00.000Z";
      await driver.write(
        upserts(record("editor", "Helix", { pinned: false, snoozedUntil: later })),
      );
      const [entry] = await driver.read([KEY]);
      expect(entry).toMatchObject({ content: "Helix", snoozedUntil: later });
      expect(entry).not.toHaveProperty("pinned");
    } finally {
      await close();
    }
  });

  it("keeps pinned entries out of a bulk deletion that asks so", async () => {
    const { driver, close } = await openDriver();
    try {
      await driver.write(
        upserts(record("old-pinned", "one", { pinned: true }), record("old", "two")),
      );
      const where = {
        namespace: "default",
        categories: undefined,
        olderThan: "2026-11-02T00:00:00.000Z",
        superseded: undefined,
        keepNewest: 0,
        dryRun: false,
      };
      expect(await driver.deleteWhere({ ...where, keepPinned: true, dryRun: true })).toEqual({
        deleted: 1,
        byCategory: { core: { eligible: 1, deleted: 1 } },
      });
      expect((await driver.deleteWhere({ ...where, keepPinned: true })).deleted).toBe(1);
      expect(await driver.count(awakeFilter())).toBe(1);
      expect((await driver.read([{ namespace: "default", key: "old-pinned" }]))[0]).toBeDefined();
      expect((await driver.deleteWhere(where)).deleted).toBe(1);
      expect(await driver.count(awakeFilter())).toBe(0);
    } finally {
      await close();
    }
  });

  it("counts a pinned entry among the newest that keepNewest keeps", async () => {
    const { driver, close } = await openDriver();
    try {
      await driver.write(
        upserts(
          record("new-pinned", "one", { pinned: true, updatedAt: "2026-11-03T00:00:00.000Z" }),
          record("older", "two", { updatedAt: "2026-11-02T00:00:00.000Z" }),
        ),
      );
      const report = await driver.deleteWhere({
        namespace: "default",
        categories: undefined,
        olderThan: undefined,
        superseded: undefined,
        keepNewest: 1,
        keepPinned: true,
        dryRun: false,
      });
      expect(report).toEqual({ deleted: 1, byCategory: { core: { eligible: 1, deleted: 1 } } });
      const left = await driver.scan({ filter: awakeFilter(), order: { by: "newest" }, limit: 9 });
      expect(left.entries.map((entry) => entry.key)).toEqual(["new-pinned"]);
    } finally {
      await close();
    }
  });
});

describe.each([false, true])("snoozed entries in recall (index %s)", (index) => {
  it("every stage leaves out entries snoozed past awakeAt, and still fills its limit", async () => {
    const { driver, close } = await openDriver({ index });
    try {
      await driver.write(
        upserts(
          ...["a", "b", "c"].map((name, at) =>
            record(`awake-${name}`, `The kayak trip ${name}`, {
              updatedAt: `2026-11-0${at + 1}T10:00:00.000Z`,
            }),
          ),
          // The newest: a stage that cut to its limit before dropping them would come up short.
          record("asleep-1", "The kayak trip asleep", { updatedAt: "2026-11-09T10:00:00.000Z" }),
          record("asleep-2", "The kayak trip asleep too", {
            updatedAt: "2026-11-08T10:00:00.000Z",
          }),
          record("woken", "The kayak trip woken", { updatedAt: "2026-11-07T10:00:00.000Z" }),
        ),
      );
      await driver.write({
        ...upserts(),
        marks: [
          { namespace: "default", key: "asleep-1", snoozedUntil: SOON },
          { namespace: "default", key: "asleep-2", snoozedUntil: SOON },
          { namespace: "default", key: "woken", snoozedUntil: "2026-11-20T00:00:00.000Z" },
        ],
      });
      const now = "2026-11-25T00:00:00.000Z";
      const awake = ["awake-b", "awake-c", "woken"];
      const found = await stageKeys(driver, "kayak", awakeFilter(now), 3);
      expect(found.recent).toEqual(awake);
      // Keyword hits come in no order (the engine ranks them): the pool is a floor there.
      expect(found.like).toHaveLength(3);
      expect(found.keyword.length).toBeGreaterThanOrEqual(3);
      for (const keys of [found.keyword, found.like]) {
        expect(keys).not.toContain("asleep-1");
        expect(keys).not.toContain("asleep-2");
      }
      // Without awakeAt (includeSnoozed) and once awake, they are back.
      for (const filter of [awakeFilter(), awakeFilter("2026-12-02T00:00:00.000Z")])
        expect((await stageKeys(driver, "kayak", filter, 10)).recent).toHaveLength(6);
      // A mark is a write like any: the next recall sees it (caches follow the files).
      await driver.write({
        ...upserts(),
        marks: [{ namespace: "default", key: "asleep-1", snoozedUntil: null }],
      });
      expect((await stageKeys(driver, "kayak", awakeFilter(now), 10)).recent).toContain("asleep-1");
    } finally {
      await close();
    }
  });
});
