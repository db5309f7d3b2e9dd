import { computeImportance } from "@memory/core";
import { describe, expect, it } from "vitest";
import { autosaveTurn, buildMemoryContext } from "../src/index.js";
import { fresh } from "./fresh-memory.js";

describe("autosaveTurn", () => {
  it("stores the user message as conversation and the reply's first 100 characters as daily", async () => {
    const memory = fresh();
    const reply = `Sure. ${"z".repeat(300)}`;
    const result = await autosaveTurn(memory, {
      userMessage: "We must always deploy on Tuesdays",
      assistantReply: reply,
      sessionId: "s1",
      namespace: "team",
    });
    expect(result.skipped).toEqual([]);
    const [user, assistant] = result.stored;
    expect(user).toMatchObject({
      category: "conversation",
      content: "We must always deploy on Tuesdays",
      sessionId: "s1",
      namespace: "team",
      importance: computeImportance("We must always deploy on Tuesdays", "conversation"),
    });
    expect(assistant).toMatchObject({ category: "daily", sessionId: "s1", namespace: "team" });
    expect(assistant?.content).toBe(reply.slice(0, 100));
    expect(await memory.count({ namespace: "team" })).toBe(2);
  });

  it("generates unique time-stamped keys", async () => {
    const memory = fresh();
    const now = () => new Date("2026-11-23T09:18:36.123Z");
    const first = await autosaveTurn(
      memory,
      { userMessage: "one", assistantReply: "two" },
      { now },
    );
    const second = await autosaveTurn(
      memory,
      { userMessage: "one", assistantReply: "two" },
      { now },
    );
    const keys = [...first.stored, ...second.stored].map((entry) => entry.key);
    expect(new Set(keys).size).toBe(4);
    expect(keys[0]).toMatch(/^conversation_2026-11-23T09:18:36\.123Z_[0-9a-f-]{36}$/);
    expect(keys[1]).toMatch(/^daily_2026-11-23T09:18:36\.123Z_[0-9a-f-]{36}$/);
  });

  it("skips what the autosave filter rejects", async () => {
    const memory = fresh();
    const result = await autosaveTurn(memory, {
      userMessage: "[cron:nightly] run hygiene",
      assistantReply: "[Memory context]\n- [core] a: b",
    });
    expect(result.stored).toEqual([]);
    expect(result.skipped).toEqual([
      { part: "user", reason: "filtered" },
      { part: "assistant", reason: "filtered" },
    ]);
    expect(await memory.count()).toBe(0);
  });

  it("skips a part any of whose lines starts with a marker", async () => {
    const memory = fresh();
    const result = await autosaveTurn(memory, {
      userMessage: "What do you know?\n[Memory context]\n- [core] editor: Neovim",
      assistantReply: "Done.\n[heartbeat] 5m",
    });
    expect(result.skipped).toEqual([
      { part: "user", reason: "filtered" },
      { part: "assistant", reason: "filtered" },
    ]);
    expect(await memory.count()).toBe(0);
  });

  it("skips empty parts and a missing reply", async () => {
    const memory = fresh();
    const result = await autosaveTurn(memory, { userMessage: "  \n " });
    expect(result.skipped).toEqual([
      { part: "user", reason: "empty" },
      { part: "assistant", reason: "empty" },
    ]);
  });

  it("never splits a surrogate pair when cutting the reply", async () => {
    const memory = fresh();
    const result = await autosaveTurn(
      memory,
      { userMessage: "hi", assistantReply: "😀".repeat(150) },
      { replyChars: 3 },
    );
    expect(result.stored[1]?.content).toBe("😀😀😀");
  });

  it("does not feed a built memory context back into memory", async () => {
    const memory = fresh();
    await memory.store({
      key: "editor",
      content: "The user edits code in Neovim",
      category: "core",
    });
    const context = await buildMemoryContext(memory, "editor");
    const result = await autosaveTurn(memory, { userMessage: context.text });
    expect(result.stored).toEqual([]);
  });
});
