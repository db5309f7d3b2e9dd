import { createInMemoryMemory, createTestEmbedder } from "@memory/testkit";
import { describe, expect, it } from "vitest";
import { buildMemoryContext, MEMORY_CONTEXT_HEADER } from "../src/index.js";
import { fresh } from "./fresh-memory.js";

describe("buildMemoryContext", () => {
  it("returns an empty context when nothing is stored", async () => {
    const context = await buildMemoryContext(fresh(), "what editor do I use?");
    expect(context).toEqual({ text: "", entries: [], truncated: false });
  });

  it("formats recalled and core memories as a [Memory context] block", async () => {
    const memory = fresh();
    await memory.store({
      key: "editor",
      content: "The user edits code in Neovim",
      category: "core",
    });
    await memory.store({ key: "lunch", content: "Had ramen for lunch", category: "daily" });
    const context = await buildMemoryContext(memory, "which editor for code?");
    const lines = context.text.split("\n");
    expect(lines[0]).toBe(MEMORY_CONTEXT_HEADER);
    // each line carries its source and the date of its last update
    expect(lines[1]).toMatch(
      /^- \[core \d{4}-\d{2}-\d{2}\] editor: The user edits code in Neovim$/,
    );
    expect(context.entries.map((entry) => entry.key)).toContain("editor");
  });

  it("lists an entry once when it is both recalled and a top core memory", async () => {
    const memory = fresh();
    await memory.store({
      key: "editor",
      content: "The user edits code in Neovim",
      category: "core",
    });
    const context = await buildMemoryContext(memory, "Neovim code editor");
    expect(context.entries.map((entry) => entry.key)).toEqual(["editor"]);
    expect(context.text.match(/editor:/g)).toHaveLength(1);
  });

  it("groups core facts before notes and respects coreLimit", async () => {
    const memory = fresh();
    for (let i = 0; i < 5; i++) {
      await memory.store({
        key: `rule-${i}`,
        content: `Standing rule number ${i}`,
        category: "core",
      });
    }
    await memory.store({ key: "trip", content: "Flight to Lisbon on Friday", category: "daily" });
    const context = await buildMemoryContext(memory, "Lisbon flight", { coreLimit: 2 });
    expect(context.entries.map((entry) => entry.category)).toEqual(["core", "core", "daily"]);
    expect(context.entries.at(-1)?.key).toBe("trip");
  });

  it("stays within maxChars and says it truncated", async () => {
    const memory = fresh();
    for (let i = 0; i < 20; i++) {
      await memory.store({
        key: `fact-${i}`,
        content: `fact ${i} ${"x".repeat(200)}`,
        category: "core",
      });
    }
    const context = await buildMemoryContext(memory, "fact", { coreLimit: 20, maxChars: 300 });
    expect(context.text.length).toBeLessThanOrEqual(300);
    expect(context.truncated).toBe(true);
    expect(context.entries.length).toBeGreaterThan(0);
  });

  it("cuts one long entry to maxEntryChars and keeps it on one line", async () => {
    const memory = fresh();
    await memory.store({
      key: "long",
      content: `line one\nline two ${"y".repeat(1000)}`,
      category: "core",
    });
    const context = await buildMemoryContext(memory, "", { maxEntryChars: 50 });
    const line = context.text.split("\n")[1]!;
    expect(line).toMatch(/^- \[core \d{4}-\d{2}-\d{2}\] long: line one line two/);
    expect(line.endsWith("…")).toBe(true);
    expect(context.text.split("\n")).toHaveLength(2);
  });

  it("skips recall for an empty message but still adds core memories", async () => {
    const memory = fresh();
    await memory.store({ key: "name", content: "The user is called Ada", category: "core" });
    await memory.store({ key: "chat", content: "hello there", category: "conversation" });
    const context = await buildMemoryContext(memory, "   ");
    expect(context.entries.map((entry) => entry.key)).toEqual(["name"]);
  });

  it("recalls only from the given namespace", async () => {
    const memory = fresh();
    await memory.store({
      key: "a",
      content: "Ada prefers tea",
      namespace: "ada",
      category: "daily",
    });
    await memory.store({
      key: "b",
      content: "Bob prefers tea",
      namespace: "bob",
      category: "daily",
    });
    const context = await buildMemoryContext(memory, "prefers tea", { namespace: "bob" });
    expect(context.entries.map((entry) => entry.key)).toEqual(["b"]);
  });

  it("leaves out superseded core memories", async () => {
    const memory = fresh();
    await memory.store({ key: "old", content: "The user lives in Paris", category: "core" });
    await memory.store({ key: "new", content: "The user lives in Rome", category: "core" });
    await memory.markSuperseded("old", "new");
    const context = await buildMemoryContext(memory, "where does the user live");
    expect(context.entries.map((entry) => entry.key)).toEqual(["new"]);
  });

  it("drops vector-scored entries below minScore", async () => {
    const memory = fresh({ embedder: createTestEmbedder() });
    await memory.store({ key: "car", content: "The user drives a blue car", category: "daily" });
    const strict = await buildMemoryContext(memory, "automobile", { minScore: 1.01, coreLimit: 0 });
    expect(strict.entries).toEqual([]);
    const loose = await buildMemoryContext(memory, "automobile", { minScore: 0, coreLimit: 0 });
    expect(loose.entries.map((entry) => entry.key)).toEqual(["car"]);
  });

  it("applies its threshold to keyword-only hits too (scores are relevance everywhere)", async () => {
    const memory = fresh();
    await memory.store({ key: "tea", content: "Ada prefers green tea", category: "daily" });
    await memory.store({ key: "other", content: "Ada has a green bicycle", category: "daily" });
    const context = await buildMemoryContext(memory, "green tea", { coreLimit: 0 });
    // A full match passes the default 0.4; one word of two does not.
    expect(context.entries.map((entry) => entry.key)).toEqual(["tea"]);
    expect(context.entries[0]?.explain?.source).toBe("keyword");
    const strict = await buildMemoryContext(memory, "green tea", { minScore: 0.99, coreLimit: 0 });
    expect(strict.entries).toEqual([]);
  });

  it("rejects when the backend fails instead of returning an empty context", async () => {
    const memory = createInMemoryMemory();
    await memory.close();
    await expect(buildMemoryContext(memory, "anything")).rejects.toMatchObject({
      code: "BACKEND_UNAVAILABLE",
    });
  });
});
