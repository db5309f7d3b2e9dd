import type { Memory } from "@memory/api";
import { contentKey } from "@memory/core";
import { Agent, Runner } from "@openai/agents";
import { describe, expect, it } from "vitest";
import { AgentMemorySession, memoryFunctionTools } from "../src/index.js";
import { lastToolOutput, ScriptedProvider, type Step } from "./scripted-provider.js";
import { sqliteMemory } from "./sqlite-file.js";

async function runAgent(memory: Memory, steps: Step[], input: string, namespace?: string) {
  const provider = new ScriptedProvider(steps);
  const agent = new Agent({
    name: "assistant",
    instructions: "Use your memory tools.",
    model: "scripted",
    tools: memoryFunctionTools(memory, namespace === undefined ? {} : { namespace }),
  });
  const result = await new Runner({ modelProvider: provider }).run(agent, input);
  return { provider, result };
}

describe("memoryFunctionTools in a real Runner", () => {
  it("offers the five memory tools with their descriptions and JSON schemas", async () => {
    const { provider } = await runAgent(sqliteMemory(), [{ say: "Hi." }], "Hello");
    const tools = provider.requests[0]?.tools ?? [];
    expect(tools.map((tool) => tool.name)).toEqual([
      "memory_store",
      "memory_recall",
      "memory_forget",
      "memory_list",
      "memory_context",
    ]);
    const store = tools[0];
    if (store?.type !== "function") throw new Error("not a function tool");
    expect(store.strict).toBe(false);
    expect(store.description).toMatch(/^Save a fact, preference, decision or note/);
    expect(store.parameters).toMatchObject({ type: "object", required: ["content"] });
    expect(store.parameters).not.toHaveProperty("$schema");
  });

  it("stores what the model asks to, and the model reads the confirmation", async () => {
    const memory = sqliteMemory();
    const content = "The user deploys on Fridays";
    const { result } = await runAgent(
      memory,
      [
        { call: "memory_store", input: { content } },
        { say: (request) => `Done: ${lastToolOutput(request)}` },
      ],
      "Remember that I deploy on Fridays.",
      "ada",
    );
    const key = contentKey(content);
    expect(await memory.get(key, { namespace: "ada" })).toMatchObject({
      content,
      category: "core",
    });
    expect(result.finalOutput).toBe(`Done: Stored "${key}" (core) in namespace "ada".`);
  });

  it("recalls what was stored, and the context tool gives the block", async () => {
    const memory = sqliteMemory();
    await memory.store({
      key: "deploy_day",
      content: "The user deploys on Fridays",
      category: "core",
    });
    const { result } = await runAgent(
      memory,
      [
        { call: "memory_recall", input: { query: "when does the user deploy" } },
        { call: "memory_context", input: { message: "When do I deploy?" } },
        { say: (request) => lastToolOutput(request) },
      ],
      "When do I deploy?",
    );
    expect(result.finalOutput).toMatch(
      /^\[Memory context\]\n- \[core \d{4}-\d{2}-\d{2}\] deploy_day: The user deploys on Fridays$/,
    );
  });

  it("gives the model the error of a call with bad input, storing nothing", async () => {
    const memory = sqliteMemory();
    const { result } = await runAgent(
      memory,
      [
        { call: "memory_store", input: { content: "", importance: 4 } },
        { say: (request) => lastToolOutput(request) },
      ],
      "Remember nothing.",
    );
    expect(result.finalOutput).toMatch(/Invalid input for memory_store/);
    expect(result.finalOutput).toMatch(/importance/);
    expect(await memory.count()).toBe(0);
  });

  it("works together with the session: tools and history in one memory", async () => {
    const memory = sqliteMemory();
    const session = new AgentMemorySession(memory, { sessionId: "chat-1" });
    const provider = new ScriptedProvider([
      { call: "memory_store", input: { key: "editor", content: "The user codes in Helix" } },
      { say: "Saved." },
    ]);
    const agent = new Agent({
      name: "a",
      model: "scripted",
      tools: memoryFunctionTools(memory, { sessionId: "chat-1" }),
    });
    await new Runner({ modelProvider: provider }).run(agent, "I code in Helix.", { session });
    expect(await memory.get("editor")).toMatchObject({ sessionId: "chat-1", category: "core" });
    const types = (await session.getItems()).map((item) => item.type ?? "message");
    expect(types).toEqual(["message", "function_call", "function_call_result", "message"]);
    // The fact survives clearing the conversation: only the session's items go.
    await session.clearSession();
    expect(await memory.get("editor")).not.toBeNull();
  });
});
