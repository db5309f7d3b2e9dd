import { MemoryError } from "@memory/api";
import { generateText, stepCountIs, streamText, wrapLanguageModel } from "ai";
import { describe, expect, it } from "vitest";
import { memoryMiddleware, memoryTools } from "../src/index.js";
import { type CallOptions, lastToolOutput, scriptedModel } from "./scripted-model.js";
import { sqliteMemory } from "./sqlite-file.js";

// The block as the model sees it: the header, then the fact with the date of its last update.
const EDITOR_CONTEXT = expect.stringMatching(
  /^\[Memory context\]\n- \[core \d{4}-\d{2}-\d{2}\] editor: The user edits code in Neovim$/,
);

function systemTexts(params: CallOptions | undefined): string[] {
  return (params?.prompt ?? []).flatMap((m) => (m.role === "system" ? [m.content] : []));
}

describe("memoryMiddleware", () => {
  it("puts the memory context after the call's system prompt, leaving the caller's messages alone", async () => {
    const memory = sqliteMemory();
    await memory.store({
      key: "editor",
      content: "The user edits code in Neovim",
      category: "core",
    });
    const model = scriptedModel([{ text: "Neovim." }]);
    const messages = [{ role: "user" as const, content: "Which editor do I use for code?" }];
    await generateText({
      model: wrapLanguageModel({ model, middleware: memoryMiddleware(memory) }),
      system: "You are terse.",
      messages,
    });
    const prompt = model.doGenerateCalls[0]?.prompt ?? [];
    expect(prompt.map((message) => message.role)).toEqual(["system", "system", "user"]);
    expect(systemTexts(model.doGenerateCalls[0])).toEqual(["You are terse.", EDITOR_CONTEXT]);
    expect(messages).toEqual([{ role: "user", content: "Which editor do I use for code?" }]);
  });

  it("can put the context before the user's own words instead", async () => {
    const memory = sqliteMemory();
    await memory.store({
      key: "editor",
      content: "The user edits code in Neovim",
      category: "core",
    });
    const model = scriptedModel([{ text: "Neovim." }]);
    await generateText({
      model: wrapLanguageModel({
        model,
        middleware: memoryMiddleware(memory, { position: "user" }),
      }),
      prompt: "Which editor do I use for code?",
    });
    const user = model.doGenerateCalls[0]?.prompt.at(-1);
    expect(user?.role).toBe("user");
    const texts =
      user?.role === "user" ? user.content.map((part) => part.type === "text" && part.text) : [];
    expect(texts).toEqual([EDITOR_CONTEXT, "Which editor do I use for code?"]);
  });

  it("autosaves what the user wrote, not the context it put before their words", async () => {
    const memory = sqliteMemory();
    await memory.store({
      key: "editor",
      content: "The user edits code in Neovim",
      category: "core",
    });
    const model = scriptedModel([{ text: "Neovim." }]);
    await generateText({
      model: wrapLanguageModel({
        model,
        middleware: memoryMiddleware(memory, { position: "user", autosave: true }),
      }),
      prompt: "Which editor do I use for code?",
    });
    const user = model.doGenerateCalls[0]?.prompt.at(-1);
    expect(user?.role === "user" && user.content).toHaveLength(2);
    const saved = await memory.list({ categories: ["conversation"] });
    expect(saved.map((entry) => entry.content)).toEqual(["Which editor do I use for code?"]);
  });

  it("sends the prompt unchanged when no memory is relevant, or with context: false", async () => {
    const memory = sqliteMemory();
    await memory.store({
      key: "editor",
      content: "The user edits code in Neovim",
      category: "core",
    });
    const model = scriptedModel([{ text: "a" }, { text: "b" }]);
    await generateText({
      model: wrapLanguageModel({ model, middleware: memoryMiddleware(memory) }),
      prompt: "quantum chromodynamics lattice",
    });
    await generateText({
      model: wrapLanguageModel({ model, middleware: memoryMiddleware(memory, { context: false }) }),
      prompt: "Which editor do I use for code?",
    });
    for (const call of model.doGenerateCalls)
      expect(call.prompt.map((message) => message.role)).toEqual(["user"]);
  });

  it("adds the context to every step of a tool loop and autosaves the finished turn once", async () => {
    const memory = sqliteMemory();
    await memory.store({
      key: "editor",
      content: "The user edits code in Neovim",
      category: "core",
    });
    const model = scriptedModel([
      { call: "memory_recall", input: { query: "editor" } },
      { text: (params) => `From memory: ${lastToolOutput(params).value}` },
    ]);
    const result = await generateText({
      model: wrapLanguageModel({
        model,
        middleware: memoryMiddleware(memory, { autosave: true, sessionId: "chat-1" }),
      }),
      tools: memoryTools(memory),
      prompt: "Which editor do I use for code?",
      stopWhen: stepCountIs(5),
    });
    expect(model.doGenerateCalls).toHaveLength(2);
    for (const call of model.doGenerateCalls) expect(systemTexts(call)).toEqual([EDITOR_CONTEXT]);
    const turn = await memory.list({ categories: ["conversation"] });
    expect(turn.map((entry) => [entry.content, entry.sessionId])).toEqual([
      ["Which editor do I use for code?", "chat-1"],
    ]);
    const daily = await memory.list({ categories: ["daily"] });
    expect(daily).toHaveLength(1);
    // The reply is under autosave's 100 characters, so it is kept whole.
    expect(daily[0]?.content).toBe(result.text);
    expect(result.text).toMatch(/^From memory: 1\. \[core\] editor/);
  });

  it("autosaves a streamed turn with the reply joined from its deltas", async () => {
    const memory = sqliteMemory();
    const model = scriptedModel([{ text: "Tabs, four wide." }]);
    const result = streamText({
      model: wrapLanguageModel({ model, middleware: memoryMiddleware(memory, { autosave: true }) }),
      prompt: "I always indent with tabs.",
    });
    expect(await result.text).toBe("Tabs, four wide.");
    const saved = await memory.list();
    expect(saved.map((entry) => [entry.category, entry.content]).sort()).toEqual([
      ["conversation", "I always indent with tabs."],
      ["daily", "Tabs, four wide."],
    ]);
  });

  it("uses the call's providerOptions.memory namespace and sessionId", async () => {
    const memory = sqliteMemory();
    await memory.store({
      key: "editor",
      content: "The user edits code in Neovim",
      category: "core",
      namespace: "bob",
    });
    const model = scriptedModel([{ text: "Neovim." }]);
    await generateText({
      model: wrapLanguageModel({ model, middleware: memoryMiddleware(memory, { autosave: true }) }),
      prompt: "Which editor do I use for code?",
      providerOptions: { memory: { namespace: "bob", sessionId: "s-9" } },
    });
    expect(systemTexts(model.doGenerateCalls[0])).toEqual([EDITOR_CONTEXT]);
    expect(await memory.count({ namespace: "default" })).toBe(0);
    const saved = await memory.list({ namespace: "bob", categories: ["conversation"] });
    expect(saved.map((entry) => entry.sessionId)).toEqual(["s-9"]);
  });

  it("rejects the call when autosave fails, unless onAutosaveError takes the failure", async () => {
    const memory = sqliteMemory();
    await memory.close();
    const failing = generateText({
      model: wrapLanguageModel({
        model: scriptedModel([{ text: "Answer." }]),
        middleware: memoryMiddleware(memory, { context: false, autosave: true }),
      }),
      prompt: "Hello there",
    });
    await expect(failing).rejects.toSatisfy(
      (error) => MemoryError.hasCode(error, "BACKEND_UNAVAILABLE") || MemoryError.isInstance(error),
    );
    const reported: unknown[] = [];
    const result = await generateText({
      model: wrapLanguageModel({
        model: scriptedModel([{ text: "Answer." }]),
        middleware: memoryMiddleware(memory, {
          context: false,
          autosave: true,
          onAutosaveError: (error) => reported.push(error),
        }),
      }),
      prompt: "Hello there",
    });
    expect(result.text).toBe("Answer.");
    expect(reported).toHaveLength(1);
    expect((reported[0] as Error).name).toBe("MemoryClosedError");
  });

  it("errors the stream when a streamed turn cannot be saved", async () => {
    const memory = sqliteMemory();
    await memory.close();
    const result = streamText({
      model: wrapLanguageModel({
        model: scriptedModel([{ text: "Answer." }]),
        middleware: memoryMiddleware(memory, { context: false, autosave: true }),
      }),
      prompt: "Hello there",
    });
    const seen: string[] = [];
    const reading = (async () => {
      for await (const part of result.fullStream) seen.push(part.type);
    })();
    await expect(reading).rejects.toMatchObject({ name: "MemoryClosedError" });
    // The reply reached the reader; the failure comes before the stream's end.
    expect(seen).toContain("text-delta");
    expect(seen).not.toContain("finish");
  });

  it("rejects an unknown position with INVALID_INPUT", () => {
    const failure = (() => {
      try {
        memoryMiddleware(sqliteMemory(), { position: "top" as never });
      } catch (error) {
        return error;
      }
    })();
    expect(MemoryError.hasCode(failure, "INVALID_INPUT")).toBe(true);
    expect((failure as Error).message).toContain('"top"');
  });
});
