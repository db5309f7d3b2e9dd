import type { Memory, MemoryEntry } from "@memory/api";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { createPostgresMemory } from "../src/index.js";
import { schemaRegistry, TEST_URL } from "./helpers.js";

const schemas = schemaRegistry("kst");
const opened: Memory[] = [];
afterEach(async () => {
  await Promise.allSettled(opened.splice(0).map((memory) => memory.close()));
});
afterAll(() => schemas.dropAll());

// The hot cache off: every recall runs the keyword stage and its (cached) statistics.
function open(schema: string): Memory {
  const memory = createPostgresMemory({
    connectionString: TEST_URL,
    schema,
    maxConnections: 2,
    recallCacheSize: 0,
    logger: () => {},
  });
  opened.push(memory);
  return memory;
}

const query = "camping by the lake";
const scores = (entries: readonly MemoryEntry[]) =>
  entries.map((entry) => [entry.key, entry.explain?.keywordScore]);
const recall = (memory: Memory) => memory.recall(query, { mode: "bm25", minScore: 0 });

describe("postgres: keyword statistics kept between recalls", () => {
  it("follow this instance's writes and another instance's commits", async () => {
    const schema = schemas.next();
    const reader = open(schema);
    await reader.store({ key: "a", content: "camping by the lake in May" });
    await reader.store({ key: "b", content: "the lake house" });
    const writer = open(schema);
    const first = scores(await recall(reader));

    // Its own write: "camping" is now in two entries, so entry a's BM25 falls.
    await reader.store({ key: "c", content: "camping again, no lake this time" });
    const afterOwn = scores(await recall(reader));
    expect(afterOwn).toEqual(scores(await recall(open(schema))));
    expect(afterOwn.find(([key]) => key === "a")).not.toEqual(first.find(([key]) => key === "a"));

    // Another instance's commit.
    await writer.store({ key: "d", content: "camping camping camping" });
    const afterOther = scores(await recall(reader));
    expect(afterOther).toEqual(scores(await recall(open(schema))));
    expect(afterOther.map(([key]) => key)).toContain("d");
    expect(afterOther.find(([key]) => key === "a")).not.toEqual(
      afterOwn.find(([key]) => key === "a"),
    );
  });
});
