import type { Memory, MemoryEntry } from "@memory/api";
import { afterEach, describe, expect, it } from "vitest";
import { createSqliteMemory } from "../src/index.js";
import { tempDbPath } from "./helpers.js";

const opened: Memory[] = [];
afterEach(async () => {
  await Promise.allSettled(opened.splice(0).map((memory) => memory.close()));
});

// The hot cache off: every recall runs the keyword stage and its (cached) statistics.
function open(path: string): Memory {
  const memory = createSqliteMemory({ path, recallCacheSize: 0, logger: () => {} });
  opened.push(memory);
  return memory;
}

const query = "camping by the lake";
const scores = (entries: readonly MemoryEntry[]) =>
  entries.map((entry) => [entry.key, entry.explain?.keywordScore]);
const recall = (memory: Memory) => memory.recall(query, { mode: "bm25", minScore: 0 });

describe("sqlite: keyword statistics kept between recalls", () => {
  it("follow this instance's writes and another instance's commits", async () => {
    const path = tempDbPath();
    const reader = open(path);
    const writer = open(path);
    await reader.store({ key: "a", content: "camping by the lake in May" });
    await reader.store({ key: "b", content: "the lake house" });
    const first = scores(await recall(reader));

    // Its own write: "camping" is now in two entries, so entry a's BM25 falls.
    await reader.store({ key: "c", content: "camping again, no lake this time" });
    const afterOwn = scores(await recall(reader));
    expect(afterOwn).toEqual(scores(await recall(open(path))));
    expect(afterOwn.find(([key]) => key === "a")).not.toEqual(first.find(([key]) => key === "a"));

    // Another connection's commit.
    await writer.store({ key: "d", content: "camping camping camping" });
    const afterOther = scores(await recall(reader));
    expect(afterOther).toEqual(scores(await recall(open(path))));
    expect(afterOther.map(([key]) => key)).toContain("d");
    expect(afterOther.find(([key]) => key === "a")).not.toEqual(
      afterOwn.find(([key]) => key === "a"),
    );
  });
});
