import { contentKey } from "@memory/core";
import { generateText, stepCountIs } from "ai";
import { describe, expect, it } from "vitest";
import { memoryTools } from "../src/index.js";
import { lastToolOutput, scriptedModel } from "./scripted-model.js";
import { sqliteMemory } from "./sqlite-file.js";

describe("memoryTools in a real generateText tool loop", () => {
  it("offers the five memory tools with their descriptions and JSON schemas to the model", async () => {
    const model = scriptedModel([{ text: "Hi." }]);
    await generateText({ model, tools: memoryTools(sqliteMemory()), prompt: "Hello" });
    const sent = model.doGenerateCalls[0]?.tools ?? [];
    expect(sent.map((tool) => tool.name)).toEqual([
      "memory_store",
      "memory_recall",
      "memory_forget",
      "memory_list",
      "memory_context",
    ]);
    const store = sent[0];
    expect(store?.type).toBe("function");
    if (store?.type !== "function") throw new Error("not a function tool");
    expect(store.description).toMatch(/^Save a fact, preference, decision or note/);
    expect(store.inputSchema).toMatchObject({
      type: "object",
      required: ["content"],
      // The shared fields with their bounds (the key's length is the library's to check).
      properties: { key: { type: "string" }, namespace: { maxLength: 256 } },
    });
  });

  it("stores what the model asks to store, and the model reads the confirmation", async () => {
    const memory = sqliteMemory();
    const content = "The user prefers dark mode in every editor";
    const model = scriptedModel([
      { call: "memory_store", input: { content } },
      { text: (params) => `Done: ${lastToolOutput(params).value}` },
    ]);
    const result = await generateText({
      model,
      tools: memoryTools(memory),
      prompt: "Remember that I like dark mode everywhere.",
      stopWhen: stepCountIs(5),
    });
    const key = contentKey(content);
    expect(await memory.get(key)).toMatchObject({ content, category: "core" });
    expect(result.text).toBe(`Done: Stored "${key}" (core) in namespace "default".`);
    expect(lastToolOutput(model.doGenerateCalls[1] as never).type).toBe("text");
    const [toolResult] = result.steps[0]?.toolResults ?? [];
    expect(toolResult?.toolName).toBe("memory_store");
    expect(toolResult?.output).toMatchObject({ data: { entry: { key, content } } });
  });

  it("recalls in a later conversation what an earlier one stored", async () => {
    const memory = sqliteMemory();
    await generateText({
      model: scriptedModel([
        {
          call: "memory_store",
          input: { key: "user_editor", content: "The user codes in Neovim" },
        },
        { text: "Noted." },
      ]),
      tools: memoryTools(memory),
      prompt: "I use Neovim.",
      stopWhen: stepCountIs(5),
    });
    const model = scriptedModel([
      { call: "memory_recall", input: { query: "which editor does the user code in" } },
      { text: (params) => String(lastToolOutput(params).value) },
    ]);
    const result = await generateText({
      model,
      tools: memoryTools(memory),
      prompt: "Which editor do I use?",
      stopWhen: stepCountIs(5),
    });
    expect(result.text).toMatch(
      /^1\. \[core\] user_editor \(score 0\.\d{3}\): The user codes in Neovim$/,
    );
  });

  it("turns a failed call into a tool error the model reads, storing nothing", async () => {
    const memory = sqliteMemory();
    const model = scriptedModel([
      // Passes the schema, refused by the library: a key may not hold a NUL.
      { call: "memory_store", input: { key: "bad\u0000key", content: "Some fact" } },
      { text: (params) => JSON.stringify(lastToolOutput(params)) },
    ]);
    const result = await generateText({
      model,
      tools: memoryTools(memory),
      prompt: "Remember this.",
      stopWhen: stepCountIs(5),
    });
    const output = JSON.parse(result.text) as { type: string; value: string };
    expect(output.type).toBe("error-text");
    expect(output.value).toMatch(/key/i);
    expect(await memory.count()).toBe(0);
  });

  it("rejects input outside the schema before running the tool (importance above 1)", async () => {
    const memory = sqliteMemory();
    const model = scriptedModel([
      { call: "memory_store", input: { content: "A fact", importance: 3 } },
      { text: (params) => JSON.stringify(lastToolOutput(params)) },
    ]);
    const result = await generateText({
      model,
      tools: memoryTools(memory),
      prompt: "Remember this.",
      stopWhen: stepCountIs(5),
    });
    expect(JSON.parse(result.text)).toMatchObject({ type: "error-text" });
    expect(JSON.parse(result.text).value).toMatch(/importance/);
    expect(await memory.count()).toBe(0);
  });

  it("keeps a fixed namespace: the model cannot write elsewhere", async () => {
    const memory = sqliteMemory();
    const model = scriptedModel([
      { call: "memory_store", input: { key: "k", content: "Alice's fact", namespace: "bob" } },
      { text: "ok" },
    ]);
    await generateText({
      model,
      tools: memoryTools(memory, { namespace: "alice" }),
      prompt: "Remember.",
      stopWhen: stepCountIs(5),
    });
    expect(await memory.get("k", { namespace: "alice" })).not.toBeNull();
    expect(await memory.get("k", { namespace: "bob" })).toBeNull();
  });
});
