import { afterEach, describe, expect, it } from "vitest";
import { createSqliteMemory, type SqliteMemory } from "../src/index.js";
import { tempDbPath } from "./helpers.js";

const DAY = 86_400_000;
const NOW = Date.parse("2026-03-02T09:00:00.000Z");

const memories: SqliteMemory[] = [];
afterEach(async () => {
  for (const memory of memories.splice(0)) await memory.close();
});

/** Two memories on one file, as two processes would have them, with the recall cache on. */
async function twoOnOneFile() {
  const path = tempDbPath();
  const open = () => {
    const memory = createSqliteMemory({ path, now: () => NOW, logger: () => {} });
    memories.push(memory);
    return memory;
  };
  const first = open();
  await first.store({ key: "coffee", content: "The user drinks black coffee every morning" });
  await first.store({ key: "tea", content: "The user drinks green tea in the evening" });
  return { first, second: open() };
}

const keys = (results: readonly { key: string }[]) => results.map((entry) => entry.key).sort();

describe("sqlite: pins and snoozes reach another memory on the same file at once", () => {
  it("a snooze leaves the entry out of the other's next (cached) recall, an unsnooze brings it back", async () => {
    const { first, second } = await twoOnOneFile();
    const ask = () => first.recall("what does the user drink", { minScore: 0 });
    expect(keys(await ask())).toEqual(["coffee", "tea"]);
    // The other memory's recall records usage: the first's cached answer stays right.
    await second.recall("what does the user drink", { minScore: 0 });
    expect(keys(await ask())).toEqual(["coffee", "tea"]);

    await second.snooze("coffee", { forMs: DAY });
    expect(keys(await ask())).toEqual(["tea"]);
    expect(
      keys(await first.recall("what does the user drink", { minScore: 0, includeSnoozed: true })),
    ).toEqual(["coffee", "tea"]);
    await second.unsnooze("coffee");
    expect(keys(await ask())).toEqual(["coffee", "tea"]);
  });

  it("a pin shows on the other's next recall", async () => {
    const { first, second } = await twoOnOneFile();
    const coffee = async () =>
      (await first.recall("black coffee", { minScore: 0 })).find((entry) => entry.key === "coffee");
    expect(await coffee()).not.toHaveProperty("pinned");
    await second.pin("coffee");
    expect((await coffee())!.pinned).toBe(true);
    await second.unpin("coffee");
    expect(await coffee()).not.toHaveProperty("pinned");
  });

  it("feedback given through one memory counts in the other's usage report", async () => {
    const { first, second } = await twoOnOneFile();
    const results = await first.recall("black coffee", { minScore: 0 });
    // A recall's events are written just after it returns; a report waits for them.
    expect((await first.usage({ keys: ["coffee"] })).entries[0]!.stats.surfaced).toBe(1);
    await second.feedback({ recallId: results.recallId!, used: ["coffee"] });
    const { entries } = await first.usage({ keys: ["coffee"] });
    expect(entries[0]!.stats).toMatchObject({ surfaced: 1, used: 1 });
    expect((await second.healthCheck()).details).toMatchObject({
      usageEvents: results.length + 1,
    });
  });

  it("feedback through the other memory right after the recall finds it before its events are written", async () => {
    const { first, second } = await twoOnOneFile();
    const results = await first.recall("black coffee", { minScore: 0 });
    // No drain in between: the first memory still holds the recall's events (another worker,
    // a moment after answering); the second waits for them once instead of answering 404.
    const report = await second.feedback({ recallId: results.recallId!, used: ["coffee"] });
    expect(report).toMatchObject({ used: ["coffee"] });
    const { entries } = await second.usage({ keys: ["coffee"] });
    expect(entries[0]!.stats).toMatchObject({ surfaced: 1, used: 1 });
    // An id nobody recalled is still not found, after that one wait.
    await expect(second.feedback({ recallId: "no-such-recall", used: [] })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
  });
});
