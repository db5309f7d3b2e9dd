import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MemoryError } from "@memory/api";
import { createSqliteMemory } from "@memory/sqlite";
import { Agent, type AgentInputItem, MemorySession, Runner, type Session } from "@openai/agents";
import { describe, expect, it } from "vitest";
import { AgentMemorySession } from "../src/index.js";
import { ScriptedProvider, userTexts } from "./scripted-provider.js";
import { sqliteMemory } from "./sqlite-file.js";

/** Two turns of one conversation through a real Runner, the session keeping the history. */
async function converse(session: Session): Promise<ScriptedProvider> {
  const provider = new ScriptedProvider([
    { say: "Hello Ada, noted that you deploy on Fridays." },
    { say: "You deploy on Fridays." },
  ]);
  const runner = new Runner({ modelProvider: provider });
  const agent = new Agent({ name: "assistant", instructions: "Be brief.", model: "scripted" });
  await runner.run(agent, "Hi, I am Ada and I deploy on Fridays.", { session });
  await runner.run(agent, "When do I deploy?", { session });
  return provider;
}

describe("AgentMemorySession with the OpenAI Agents SDK", () => {
  it("keeps the same history as the SDK's own MemorySession through real runs", async () => {
    const ours = new AgentMemorySession(sqliteMemory(), { sessionId: "chat-1" });
    const reference = new MemorySession({ sessionId: "chat-1" });
    const oursProvider = await converse(ours);
    const referenceProvider = await converse(reference);
    const items = await ours.getItems();
    expect(items).toEqual(await reference.getItems());
    expect(items).toHaveLength(4);
    // The second turn was sent the first one: the history came from the session.
    expect(userTexts(oursProvider.requests[1] as never)).toEqual([
      "Hi, I am Ada and I deploy on Fridays.",
      "When do I deploy?",
    ]);
    expect(oursProvider.requests[1]?.input).toEqual(referenceProvider.requests[1]?.input);
  });

  it("keeps the conversation across restarts: a new memory over the same file has it", async () => {
    const dir = mkdtempSync(join(tmpdir(), "memory-openai-agents-restart-"));
    try {
      const path = join(dir, "brain.db");
      const first = createSqliteMemory({ path });
      await converse(new AgentMemorySession(first, { sessionId: "chat-7", namespace: "ada" }));
      const before = await new AgentMemorySession(first, {
        sessionId: "chat-7",
        namespace: "ada",
      }).getItems();
      await first.close();
      const second = createSqliteMemory({ path });
      try {
        const session = new AgentMemorySession(second, { sessionId: "chat-7", namespace: "ada" });
        expect(await session.getItems()).toEqual(before);
        // Numbering continues after the stored items: a new item comes last.
        const extra: AgentInputItem = { role: "user", content: "One more thing." };
        await session.addItems([extra]);
        expect((await session.getItems()).at(-1)).toEqual(extra);
        expect(await session.getItems()).toHaveLength(5);
      } finally {
        await second.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("answers getItems(limit), popItem and clearSession as MemorySession does", async () => {
    const items: AgentInputItem[] = [1, 2, 3, 4, 5].map((n) => ({
      role: "user",
      content: `message ${n}`,
    }));
    const memory = sqliteMemory();
    const ours = new AgentMemorySession(memory, { sessionId: "s" });
    const reference = new MemorySession({ sessionId: "s" });
    for (const session of [ours, reference]) {
      await session.addItems(items.slice(0, 3));
      await session.addItems(items.slice(3));
    }
    for (const limit of [undefined, 0, 2, 5, 9])
      expect(await ours.getItems(limit)).toEqual(await reference.getItems(limit));
    expect(await ours.popItem()).toEqual(await reference.popItem());
    expect(await ours.getItems()).toEqual(await reference.getItems());
    // Another memory with the same session id is not one of the session's items.
    await memory.store({ key: "fact", content: "Ada deploys on Fridays", sessionId: "s" });
    await ours.clearSession();
    await reference.clearSession();
    expect(await ours.getItems()).toEqual([]);
    expect(await ours.popItem()).toBeUndefined();
    expect(await memory.get("fact")).not.toBeNull();
    expect(await ours.getSessionId()).toBe("s");
  });

  it("keeps the order of items added without waiting", async () => {
    const session = new AgentMemorySession(sqliteMemory());
    const batches = [0, 1, 2, 3].map((batch) =>
      [0, 1].map((n): AgentInputItem => ({ role: "user", content: `b${batch}-${n}` })),
    );
    await Promise.all(batches.map((batch) => session.addItems(batch)));
    expect(await session.getItems()).toEqual(batches.flat());
    expect(await session.getSessionId()).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("recalls over the stored items, in this session or in all of the namespace", async () => {
    const memory = sqliteMemory();
    const ada = new AgentMemorySession(memory, { sessionId: "ada-1" });
    await converse(ada);
    const other = new AgentMemorySession(memory, { sessionId: "bob-1" });
    await other.addItems([{ role: "user", content: "Bob deploys on Tuesdays after lunch." }]);
    const found = await ada.search("deploy Fridays");
    expect(found.length).toBeGreaterThan(0);
    expect(found.every((result) => result.sessionId === "ada-1")).toBe(true);
    expect(found[0]?.item).toEqual({
      type: "message",
      role: "user",
      content: "Hi, I am Ada and I deploy on Fridays.",
    });
    expect(found[0]?.score).toBeGreaterThan(0.3);
    const everywhere = await ada.search("Tuesdays lunch", { allSessions: true });
    expect(everywhere.map((result) => result.sessionId)).toEqual(["bob-1"]);
    expect(await ada.search("Tuesdays lunch")).toEqual([]);
  });

  it("searches and reads after the writes already started, without the caller awaiting them", async () => {
    const session = new AgentMemorySession(sqliteMemory());
    const adding = session.addItems([
      { role: "user", content: "The staging database is Postgres 15." },
    ]);
    const found = await session.search("staging database Postgres");
    expect(found.map((result) => result.item)).toEqual([
      { role: "user", content: "The staging database is Postgres 15." },
    ]);
    await adding;
  });

  it("fails with a typed error, naming the key, when a stored item is not JSON", async () => {
    const memory = sqliteMemory();
    const session = new AgentMemorySession(memory, { sessionId: "s" });
    await session.addItems([{ role: "user", content: "hello" }]);
    await memory.store({
      key: "session:s:000000000001",
      content: "edited by hand",
      category: "session",
      sessionId: "s",
    });
    const failure = await session.getItems().catch((error: unknown) => error);
    expect(MemoryError.hasCode(failure, "INVALID_INPUT")).toBe(true);
    expect((failure as Error).message).toContain('"session:s:000000000001"');
  });
});
