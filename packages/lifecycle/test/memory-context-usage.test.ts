import { describe, expect, it } from "vitest";
import { buildMemoryContext } from "../src/index.js";
import { fresh } from "./fresh-memory.js";

async function seed() {
  const memory = fresh();
  await memory.store({ key: "coffee", content: "The user drinks black coffee every morning" });
  await memory.store({
    key: "dentist",
    content: "The user's dentist is Dr. Alvarez on Main Street",
  });
  await memory.store({ key: "bike", content: "The user rides a red bike to work" });
  return memory;
}

describe("buildMemoryContext and usage", () => {
  it("returns a recallId for the entries it shows; feedback on it counts what the agent used", async () => {
    const memory = await seed();
    const context = await buildMemoryContext(memory, "What coffee does the user drink?", {
      coreLimit: 0,
    });
    expect(context.entries.map((entry) => entry.key)).toEqual(["coffee"]);
    expect(context.recallId).toBeDefined();
    await memory.feedback({ recallId: context.recallId!, used: ["coffee"] });
    const [coffee] = (await memory.usage({ keys: ["coffee"] })).entries;
    // Surfaced once: by the block, not by the recalls that chose it.
    expect(coffee!.stats).toMatchObject({ surfaced: 1, used: 1 });
    // A key the block did not show is refused.
    await expect(
      memory.feedback({ recallId: context.recallId!, used: ["bike"] }),
    ).rejects.toMatchObject({ code: "INVALID_INPUT" });
  });

  it("track: false and an empty block give no recallId", async () => {
    const memory = await seed();
    const quiet = await buildMemoryContext(memory, "What coffee does the user drink?", {
      track: false,
    });
    expect(quiet.entries.length).toBeGreaterThan(0);
    expect(quiet.recallId).toBeUndefined();
    const empty = await buildMemoryContext(memory, "qwzx blorf vlimmet?", { coreLimit: 0 });
    expect(empty.entries).toEqual([]);
    expect(empty.recallId).toBeUndefined();
    expect((await memory.usage({ keys: ["coffee"] })).entries[0]!.stats.surfaced).toBe(0);
  });

  it("a pinned entry is eligible under the threshold; a snoozed one stays out", async () => {
    const memory = await seed();
    const question = "Who is the user's dentist, and does the user ride to work?";
    const threshold = { coreLimit: 0, minScore: 0.95 };
    const before = await buildMemoryContext(memory, question, threshold);
    expect(before.entries.map((entry) => entry.key)).not.toContain("bike");
    await memory.pin("bike");
    const pinned = await buildMemoryContext(memory, question, threshold);
    expect(pinned.entries.map((entry) => entry.key)).toContain("bike");
    await memory.snooze("bike", { forMs: 86_400_000 });
    const snoozed = await buildMemoryContext(memory, question, threshold);
    expect(snoozed.entries.map((entry) => entry.key)).not.toContain("bike");
  });
});
