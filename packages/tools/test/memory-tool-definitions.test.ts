import { MemoryError } from "@memory/api";
import { contentKey } from "@memory/core";
import { MEMORY_CONTEXT_HEADER } from "@memory/lifecycle";
import { describe, expect, it } from "vitest";
import {
  type AnyMemoryToolDefinition,
  MEMORY_TOOL_NAMES,
  type MemoryToolName,
  memoryToolDefinitions,
  memoryToolSpec,
} from "../src/index.js";
import { sqliteMemory } from "./sqlite-file.js";

function byName(tools: AnyMemoryToolDefinition[], name: MemoryToolName): AnyMemoryToolDefinition {
  const found = tools.find((tool) => tool.name === name);
  if (!found) throw new Error(`no tool ${name}`);
  return found;
}

interface JsonObjectSchema {
  type: string;
  properties: Record<string, Record<string, unknown>>;
  required?: string[];
}

describe("memoryToolDefinitions", () => {
  it("defines the five tools with the MCP server's names, in order", () => {
    const tools = memoryToolDefinitions(sqliteMemory());
    expect(tools.map((tool) => tool.name)).toEqual([...MEMORY_TOOL_NAMES]);
    expect(tools.map((tool) => tool.name)).toEqual([
      "memory_store",
      "memory_recall",
      "memory_forget",
      "memory_list",
      "memory_context",
    ]);
    for (const tool of tools) {
      const spec = memoryToolSpec(tool.name);
      expect(tool.description).toBe(spec.description);
      expect(tool.title).toBe(spec.title);
      expect(tool.annotations).toEqual(spec.annotations);
      expect(tool.description.length).toBeGreaterThan(80);
    }
  });

  it("writes each input as JSON Schema with the HTTP API's and MCP server's limits", () => {
    const tools = memoryToolDefinitions(sqliteMemory());
    const store = byName(tools, "memory_store").inputJsonSchema as unknown as JsonObjectSchema;
    expect(store.type).toBe("object");
    expect(store.required).toEqual(["content"]);
    // The key's length is the library's to check (INVALID_INPUT), as over HTTP; the words say it.
    expect(store.properties.key).toMatchObject({ type: "string" });
    expect(store.properties.key?.description).toContain("at most 1024 characters");
    expect(store.properties.importance).toMatchObject({ minimum: 0, maximum: 1 });
    expect(store.properties.namespace).toMatchObject({ maxLength: 256 });
    const recall = byName(tools, "memory_recall").inputJsonSchema as unknown as JsonObjectSchema;
    expect(recall.required).toEqual(["query"]);
    expect(recall.properties.query).toMatchObject({ maxLength: 10_000 });
    expect(recall.properties.limit).toMatchObject({ type: "integer", minimum: 0, maximum: 1000 });
    const list = byName(tools, "memory_list").inputJsonSchema as unknown as JsonObjectSchema;
    expect(list.properties.limit).toMatchObject({ minimum: 0, maximum: 10_000 });
    // Plain JSON: a framework can send it as it is.
    expect(JSON.parse(JSON.stringify(store))).toEqual(store);
  });

  it("stores and recalls through the tools over a real SQLite file", async () => {
    const memory = sqliteMemory();
    const tools = memoryToolDefinitions(memory);
    const stored = await byName(tools, "memory_store").execute({
      key: "user_preferred_editor",
      content: "The user edits code in Neovim",
    });
    expect(stored.text).toBe('Stored "user_preferred_editor" (core) in namespace "default".');
    expect(await memory.get("user_preferred_editor")).toMatchObject({
      content: "The user edits code in Neovim",
      category: "core",
    });
    const recalled = await byName(tools, "memory_recall").execute({ query: "which editor?" });
    const { results } = recalled.data as { results: { key: string; embedding?: unknown }[] };
    expect(results.map((entry) => entry.key)).toEqual(["user_preferred_editor"]);
    expect(results[0]).not.toHaveProperty("embedding");
    expect(recalled.text).toMatch(
      /^1\. \[core\] user_preferred_editor \(score \d\.\d{3}\): The user edits code in Neovim$/,
    );
  });

  it("derives the key from the content, so the same text stored twice stays one memory", async () => {
    const memory = sqliteMemory();
    const store = byName(memoryToolDefinitions(memory), "memory_store");
    const content = "Deploys go through the blue-green pipeline";
    await store.execute({ content, category: "daily" });
    await store.execute({ content, category: "daily" });
    expect(await memory.count()).toBe(1);
    expect(await memory.get(contentKey(content))).toMatchObject({ content, category: "daily" });
  });

  it("forgets a memory once and says so when there is none", async () => {
    const memory = sqliteMemory();
    await memory.store({ key: "old", content: "An outdated note" });
    const forget = byName(memoryToolDefinitions(memory), "memory_forget");
    expect(await forget.execute({ key: "old" })).toEqual({
      text: 'Forgot "old".',
      data: { deleted: true },
    });
    expect(await forget.execute({ key: "old" })).toEqual({
      text: 'There was no memory with key "old".',
      data: { deleted: false },
    });
    expect(await memory.get("old")).toBeNull();
  });

  it("lists memories newest first", async () => {
    const memory = sqliteMemory();
    await memory.store({ key: "a", content: "First note", category: "daily" });
    await memory.store({ key: "b", content: "Second note", category: "core" });
    const listed = await byName(memoryToolDefinitions(memory), "memory_list").execute({
      categories: ["core"],
    });
    expect(listed.text).toBe("- [core] b: Second note");
    const empty = await byName(memoryToolDefinitions(sqliteMemory()), "memory_list").execute({});
    expect(empty.text).toBe("No memories stored yet.");
  });

  it("gives the memory context block of @memory/lifecycle, and says when nothing is relevant", async () => {
    const memory = sqliteMemory();
    await memory.store({
      key: "editor",
      content: "The user edits code in Neovim",
      category: "core",
    });
    const context = byName(memoryToolDefinitions(memory), "memory_context");
    const relevant = await context.execute({ message: "which editor for code?" });
    expect(relevant.text.split("\n")).toEqual([
      MEMORY_CONTEXT_HEADER,
      expect.stringMatching(/^- \[core \d{4}-\d{2}-\d{2}\] editor: The user edits code in Neovim$/),
    ]);
    expect((relevant.data as { entries: { key: string }[] }).entries.map((e) => e.key)).toEqual([
      "editor",
    ]);
    const unrelated = await context.execute({ message: "quantum chromodynamics lattice" });
    expect(unrelated).toEqual({
      text: "No relevant memories.",
      data: { text: "", entries: [], truncated: false },
    });
    // An empty message brings the standing core memories (the start of a session).
    const start = await context.execute({ message: "" });
    expect(start.text).toMatch(/- \[core \d{4}-\d{2}-\d{2}\] editor:/);
  });

  it("rejects invalid input with INVALID_INPUT naming the field, and stores nothing", async () => {
    const memory = sqliteMemory();
    const tools = memoryToolDefinitions(memory);
    const failure = await byName(tools, "memory_store")
      .execute({ content: 42, importance: 7 })
      .catch((error: unknown) => error);
    expect(MemoryError.hasCode(failure, "INVALID_INPUT")).toBe(true);
    expect((failure as Error).message).toMatch(/memory_store/);
    expect((failure as Error).message).toMatch(/content/);
    expect((failure as Error).message).toMatch(/importance/);
    expect(await memory.count()).toBe(0);
    const tooMany = await byName(tools, "memory_recall")
      .execute({ query: "x", limit: 1001 })
      .catch((error: unknown) => error);
    expect(MemoryError.hasCode(tooMany, "INVALID_INPUT")).toBe(true);
    // An empty content passes the schema (as over HTTP) and the library refuses it.
    const empty = await byName(tools, "memory_store")
      .execute({ content: "" })
      .catch((error: unknown) => error);
    expect(MemoryError.hasCode(empty, "INVALID_INPUT")).toBe(true);
    expect(await memory.count()).toBe(0);
  });

  it("passes the library's own errors through with their code (a key with a NUL)", async () => {
    const memory = sqliteMemory();
    const failure = await byName(memoryToolDefinitions(memory), "memory_store")
      .execute({ key: "bad\u0000key", content: "text" })
      .catch((error: unknown) => error);
    expect(MemoryError.hasCode(failure, "INVALID_INPUT")).toBe(true);
    expect(await memory.count()).toBe(0);
  });

  it("with a fixed namespace offers no namespace input and ignores one sent anyway", async () => {
    const memory = sqliteMemory();
    const tools = memoryToolDefinitions(memory, { namespace: "user-42", sessionId: "s1" });
    for (const tool of tools) {
      const schema = tool.inputJsonSchema as unknown as JsonObjectSchema;
      expect(Object.keys(schema.properties)).not.toContain("namespace");
    }
    await byName(tools, "memory_store").execute({
      key: "k",
      content: "Belongs to user 42",
      namespace: "someone-else",
    });
    expect(await memory.get("k", { namespace: "user-42" })).toMatchObject({ sessionId: "s1" });
    expect(await memory.get("k", { namespace: "someone-else" })).toBeNull();
    expect(await memory.count({ namespace: "default" })).toBe(0);
  });

  it("asks resolveNamespace, which can refuse a namespace", async () => {
    const memory = sqliteMemory();
    const asked: (string | undefined)[] = [];
    const tools = memoryToolDefinitions(memory, {
      resolveNamespace: (requested) => {
        asked.push(requested);
        if (requested === "secret") throw new MemoryError("INVALID_INPUT", "Not yours.");
        return requested ?? "team";
      },
    });
    await byName(tools, "memory_store").execute({ key: "k", content: "Team fact" });
    expect(await memory.get("k", { namespace: "team" })).not.toBeNull();
    const refused = await byName(tools, "memory_recall")
      .execute({ query: "fact", namespace: "secret" })
      .catch((error: unknown) => error);
    expect((refused as Error).message).toBe("Not yours.");
    expect(asked).toEqual([undefined, "secret"]);
  });

  it("defines only the tools asked for, and rejects wrong options", () => {
    const memory = sqliteMemory();
    const tools = memoryToolDefinitions(memory, { tools: ["memory_recall", "memory_context"] });
    expect(tools.map((tool) => tool.name)).toEqual(["memory_recall", "memory_context"]);
    expect(() =>
      memoryToolDefinitions(memory, { namespace: "a", resolveNamespace: (ns) => ns }),
    ).toThrow(/either `namespace`.*or `resolveNamespace`/);
    expect(() =>
      memoryToolDefinitions(memory, { tools: ["memory_delete" as MemoryToolName] }),
    ).toThrow(/Invalid memory tools options/);
    expect(() => memoryToolDefinitions(memory, { namespace: "" })).toThrow(/namespace/);
  });
});
