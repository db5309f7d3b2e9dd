import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createInMemoryDriver, createMemoryFacade, type InMemoryDriver } from "@memory/core";
import { describe, expect, it } from "vitest";
import { createMarkdownMemory, MarkdownDriver, STATE_DIR } from "../src/index.js";
import { tempDir } from "./helpers.js";

const START = Date.parse("2026-11-20T09:00:00.000Z");
const DAY = 86_400_000;

describe.each([false, true])("usage through the memory (index %s)", (index) => {
  const open = (root: string, now: () => number) =>
    createMarkdownMemory({ root, index, logger: () => {}, now });

  it("writes pins and snoozes into the line, and a snooze written by hand hides the entry until its time", async () => {
    const root = tempDir();
    let clock = START;
    await using memory = open(root, () => clock);
    await memory.store({ key: "kayak", content: "The user owns a red kayak" });
    await memory.store({ key: "canoe", content: "The user rents a canoe in summer" });
    await memory.pin("kayak");
    expect(readFileSync(join(root, "MEMORY.md"), "utf8")).toMatch(
      /- \*\*kayak\*\*: .*"pinned":true\} -->/,
    );
    const keys = async () =>
      (await memory.recall("kayak canoe", { mode: "bm25", minScore: 0 })).map((e) => e.key).sort();
    expect(await keys()).toEqual(["canoe", "kayak"]);
    // A person snoozes the canoe by editing its line.
    const until = new Date(START + 2 * DAY).toISOString();
    const text = readFileSync(join(root, "MEMORY.md"), "utf8").replace(
      /(- \*\*canoe\*\*: .*)\} -->/,
      `$1,"snoozedUntil":"${until}"} -->`,
    );
    writeFileSync(join(root, "MEMORY.md"), text);
    expect(await keys()).toEqual(["kayak"]);
    expect(
      (await memory.recall("canoe", { mode: "bm25", minScore: 0, includeSnoozed: true })).map(
        (e) => e.key,
      ),
    ).toEqual(["canoe"]);
    clock = START + 3 * DAY;
    expect(await keys()).toEqual(["canoe", "kayak"]);
    expect(await memory.problems()).toEqual([]);
  });

  it("rebuilt from its files alone, a tree keeps its pins and snoozes, not its usage", async () => {
    const root = tempDir();
    const clock = () => START;
    {
      await using memory = open(root, clock);
      await memory.store({ key: "kayak", content: "The user owns a red kayak" });
      await memory.store({ key: "canoe", content: "The user rents a canoe in summer" });
      await memory.pin("kayak");
      await memory.snooze("canoe", { forMs: DAY });
      const results = await memory.recall("kayak", { mode: "bm25", minScore: 0 });
      await memory.feedback({ recallId: results.recallId!, used: ["kayak"] });
      const { entries } = await memory.usage({ keys: ["kayak"] });
      expect(entries[0]!.stats.used).toBe(1);
    }
    rmSync(join(root, STATE_DIR), { recursive: true });
    await using memory = open(root, clock);
    expect(await memory.get("kayak")).toMatchObject({ pinned: true });
    expect(await memory.get("canoe")).toMatchObject({
      snoozedUntil: new Date(START + DAY).toISOString(),
    });
    const { entries } = await memory.usage({ keys: ["kayak"] });
    expect(entries[0]?.stats.used ?? 0).toBe(0);
  });

  it("forgetting an entry removes its usage from the state files", async () => {
    const root = tempDir();
    await using memory = open(root, () => START);
    await memory.store({ key: "kayak", content: "The user owns a red kayak" });
    await memory.store({ key: "canoe", content: "The user rents a canoe" });
    const results = await memory.recall("kayak canoe", { mode: "bm25", minScore: 0 });
    await memory.feedback({ recallId: results.recallId!, used: ["kayak"] });
    const events = () => readFileSync(join(root, STATE_DIR, "usage-events.jsonl"), "utf8");
    expect(events()).toContain('"key":"kayak"');
    await memory.forget("kayak");
    expect(events()).not.toContain('"key":"kayak"');
    expect(events()).toContain('"key":"canoe"');
    expect(readFileSync(join(root, STATE_DIR, "usage.json"), "utf8")).not.toContain('"kayak"');
  });
});

describe("marks and the derived index", () => {
  it("the index holds no marks, so a snooze lifted in the files is never hidden by a stale index row", async () => {
    let index: InMemoryDriver | undefined;
    const driver = new MarkdownDriver({
      root: tempDir(),
      openIndex: () => {
        index = createInMemoryDriver();
        return index;
      },
    });
    await using memory = createMemoryFacade(driver, { logger: () => {}, now: () => START });
    await memory.store({ key: "kayak", content: "The user owns a red kayak" });
    await memory.pin("kayak");
    await memory.snooze("kayak", { forMs: DAY });
    // Stored again while marked: the index re-reads the row (its content changed).
    await memory.store({ key: "kayak", content: "The user owns a blue kayak" });
    const keys = async () => (await memory.recall("kayak", { mode: "bm25" })).map((e) => e.key);
    expect(await keys()).toEqual([]);
    await memory.unsnooze("kayak");
    await memory.unpin("kayak");
    expect(await keys()).toEqual(["kayak"]);
    const [row] = await index!.read([{ namespace: "default", key: "kayak" }]);
    expect(row).not.toHaveProperty("pinned");
    expect(row).not.toHaveProperty("snoozedUntil");
  });
});
