import path from "node:path";
import type { ChatModel, Memory } from "@memory/api";
import { createSqliteMemory } from "@memory/sqlite";
import { describe, expect, it } from "vitest";
import { chatModelFor, useChatFixture } from "./support/stores.js";

/**
 * `conflict_confirm = "chat"`: the decisions close to the line go to a chat model (the real
 * OpenAI-compatible client against the testkit's scripted loopback server, a real SQLite file);
 * a failing, invalid or slow model leaves the rules' decision and never loses the write.
 */
describe("conflict confirmation by a chat model", () => {
  const fixture = useChatFixture();

  const open = (model: ChatModel, timeoutMs = 3000): Memory =>
    fixture.stores.track(
      createSqliteMemory({
        path: path.join(fixture.stores.tempDir(), "brain.db"),
        chatModel: model,
        conflictConfirm: "chat",
        conflictConfirmTimeoutMs: timeoutMs,
      }),
    );

  /** A change said about a multi-valued attribute: the rules supersede, close to the line. */
  const storeNearPair = async (memory: Memory) => {
    await memory.store({ key: "sport-1", content: "The user plays handball on Mondays" });
    return memory.store({ key: "sport-2", content: "The user now plays football" });
  };

  it("lets the model overturn a decision close to the line, and says so", async () => {
    const memory = open(chatModelFor(fixture.server.baseURL));
    fixture.server.reply({
      content: JSON.stringify({
        verdicts: [{ key: "sport-1", replaces: false, reason: "people play several sports" }],
      }),
    });
    const newer = await storeNearPair(memory);
    expect(newer.conflict).toMatchObject({
      superseded: [],
      confirmation: { asked: 1, answered: 1 },
    });
    expect(newer.conflict!.candidates.find((c) => c.key === "sport-1")).toMatchObject({
      superseded: false,
      decidedBy: "chat",
      reason: expect.stringMatching(/people play several sports/),
    });
    expect((await memory.get("sport-1"))!.supersededBy).toBeUndefined();
    // The model saw the new fact and the older one, by key.
    const asked = fixture.server.userMessages().at(-1)!.join("\n");
    expect(asked).toContain("The user now plays football");
    expect(asked).toContain("sport-1");
  });

  it("does not ask about clear decisions", async () => {
    const memory = open(chatModelFor(fixture.server.baseURL));
    await memory.store({ key: "home-1", content: "The user lives in Lyon" });
    const moved = await memory.store({ key: "home-2", content: "The user moved to Nantes" });
    expect(moved.conflict!.superseded).toEqual(["home-1"]);
    expect(moved.conflict!.confirmation).toBeUndefined();
    expect(fixture.server.requests).toHaveLength(0);
  });

  it("keeps the rules' decision when the model fails", async () => {
    const memory = open(chatModelFor(fixture.server.baseURL));
    fixture.server.reply({ status: 500 }, { status: 500 });
    const newer = await storeNearPair(memory);
    expect(newer.conflict!.superseded).toEqual(["sport-1"]);
    expect(newer.conflict!.confirmation).toMatchObject({ asked: 1, answered: 0 });
    expect(newer.conflict!.confirmation!.failure).toBeTruthy();
    expect(await memory.get("sport-2")).toMatchObject({ content: "The user now plays football" });
  });

  it("keeps the rules' decision when the reply is not the expected JSON", async () => {
    const memory = open(chatModelFor(fixture.server.baseURL));
    fixture.server.reply({
      content: JSON.stringify({ verdicts: [{ key: "invented", replaces: true }] }),
    });
    const newer = await storeNearPair(memory);
    expect(newer.conflict!.superseded).toEqual(["sport-1"]);
    expect(newer.conflict!.confirmation!.failure).toMatch(/not \{key of an asked fact/);
  });

  it("stops waiting for a slow model at conflict_confirm_timeout_ms and stores anyway", async () => {
    const memory = open(chatModelFor(fixture.server.baseURL), 50);
    let release = () => {};
    const never = new Promise<void>((resolve) => {
      release = resolve;
    });
    fixture.server.reply({
      content: JSON.stringify({ verdicts: [{ key: "sport-1", replaces: false }] }),
      release: never,
    });
    const newer = await storeNearPair(memory);
    release();
    expect(newer.conflict!.superseded).toEqual(["sport-1"]);
    expect(newer.conflict!.confirmation!.failure).toMatch(/conflict_confirm_timeout_ms/);
    expect((await memory.get("sport-1"))!.supersededBy).toBe("sport-2");
  });
});
