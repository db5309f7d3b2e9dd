import type { Memory, RecallOptions } from "@memory/api";
import { createTestEmbedder } from "@memory/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { createSqliteMemory } from "../src/index.js";
import { tempDbPath } from "./helpers.js";

// Recall keeps the rows it read while the file's write version stays the same (recall-rows.ts).
// These recalls run with the hot result cache off, so every answer comes from the stages.
const opened: Memory[] = [];
afterEach(async () => {
  for (const memory of opened.splice(0)) await memory.close();
});

function open(path: string): Memory {
  const memory = createSqliteMemory({
    path,
    recallCacheSize: 0,
    embedder: createTestEmbedder(),
    logger: () => {},
  });
  opened.push(memory);
  return memory;
}

const session = { namespace: "chat", sessionId: "s1" };

async function conversation(memory: Memory): Promise<void> {
  await memory.store({ key: "t1", content: "We drove to the lake on Sunday", ...session });
  await memory.store({ key: "t2", content: "The lake water was cold", ...session });
  await memory.store({ key: "t3", content: "Then we had pizza in town", ...session });
  await memory.store({ key: "t4", content: "Pizza by the lake sounds nice", namespace: "chat" });
}

const byKey = async (memory: Memory, query: string, options: RecallOptions) =>
  new Map((await memory.recall(query, options)).map((entry) => [entry.key, entry]));

describe("sqlite: rows kept between recalls", () => {
  for (const mode of ["bm25", "hybrid"] as const) {
    const options: RecallOptions = { namespace: "chat", mode, minScore: 0, track: false };

    it(`never answer after a write of another connection or this one (${mode})`, async () => {
      const path = tempDbPath();
      const reader = open(path);
      const writer = open(path);
      await conversation(writer);
      const first = await byKey(reader, "lake water", options);
      expect(first.get("t2")?.content).toBe("The lake water was cold");
      // Another connection rewrites a candidate and pins another one.
      await writer.store({ key: "t2", content: "The lake water was freezing", ...session });
      await writer.pin("t1", { namespace: "chat" });
      const second = await byKey(reader, "lake water", options);
      expect(second.get("t2")?.content).toBe("The lake water was freezing");
      expect(second.get("t1")?.pinned).toBe(true);
      // This connection's own write, then a delete by the other.
      await reader.store({ key: "t2", content: "The lake water was warm", ...session });
      expect((await byKey(reader, "lake water", options)).get("t2")?.content).toBe(
        "The lake water was warm",
      );
      await writer.forget("t1", { namespace: "chat" });
      expect((await byKey(reader, "lake water", options)).has("t1")).toBe(false);
    });

    it(`answer each filter with its own rows (${mode})`, async () => {
      const memory = open(tempDbPath());
      await conversation(memory);
      const all = await byKey(memory, "lake pizza", options);
      expect(all.has("t4")).toBe(true);
      const inSession = await byKey(memory, "lake pizza", { ...options, sessionId: "s1" });
      expect(inSession.size).toBeGreaterThan(0);
      expect(inSession.has("t4")).toBe(false);
      // And the first filter again, after the second replaced the kept rows.
      expect([...(await byKey(memory, "lake pizza", options)).keys()].sort()).toEqual(
        [...all.keys()].sort(),
      );
    });
  }

  it("hands every recall its own entries: changing a result changes no later one", async () => {
    const memory = open(tempDbPath());
    await conversation(memory);
    const options: RecallOptions = { namespace: "chat", mode: "bm25", minScore: 0 };
    const [first] = await memory.recall("lake water", options);
    expect(first).toBeDefined();
    first!.content = "changed by the caller";
    const [again] = await memory.recall("lake water", options);
    expect(again?.key).toBe(first!.key);
    expect(again?.content).not.toBe("changed by the caller");
  });
});
