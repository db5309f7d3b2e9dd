import { MemoryError } from "@memory/api";
import { gate } from "@memory/testkit";
import { describe, expect, it } from "vitest";
import { ChatOutputError, emptyTripleReport, remember } from "../src/index.js";
import { chatModelFor, useChatFixture } from "./support/stores.js";

const chat = useChatFixture();
const { stores } = chat;

const facts = (...list: unknown[]) => ({ content: JSON.stringify({ facts: list }) });
const TURN = { userMessage: "I switched to Neovim last week and I always use tabs." };

describe("remember (SQLite, loopback OpenAI-compatible server)", () => {
  it("stores the raw turn, then each extracted fact as a core entry", async () => {
    const memory = stores.sqlite();
    chat.server.reply(
      facts(
        { key: "user_editor", content: "The user edits code in Neovim", kind: "preference" },
        { content: "The user always indents with tabs", kind: "preference", importance: 0.9 },
      ),
    );
    const result = await remember(
      memory,
      { ...TURN, assistantReply: "Noted!", sessionId: "s1", namespace: "alice" },
      { chatModel: chatModelFor(chat.server.baseURL) },
    );
    expect(result.attempts).toBe(1);
    expect(result.turn?.category).toBe("conversation");
    expect(result.turn?.content).toBe(`User: ${TURN.userMessage}\nAssistant: Noted!`);
    expect(result.facts.map((fact) => [fact.key, fact.category, fact.kind])).toEqual([
      ["user_editor", "core", "preference"],
      ["fact_preference_the_user_always_indents_with_tabs", "core", "preference"],
    ]);
    expect(result.facts[1]?.importance).toBe(0.9);
    const stored = await memory.get("user_editor", { namespace: "alice" });
    expect(stored).toMatchObject({ content: "The user edits code in Neovim", sessionId: "s1" });
    expect(await memory.count({ namespace: "alice" })).toBe(3);
    const [request] = chat.server.requests;
    expect(request?.path).toBe("/v1/chat/completions");
    expect(request?.body.response_format).toEqual({ type: "json_object" });
    expect(chat.server.userMessages()[0]?.[0]).toContain("Neovim");
  });

  it("stores no fact for an empty list and nothing at all for a filtered turn", async () => {
    const memory = stores.sqlite();
    chat.server.reply(facts());
    const result = await remember(
      memory,
      { userMessage: "hi!" },
      {
        chatModel: chatModelFor(chat.server.baseURL),
      },
    );
    expect(result.facts).toEqual([]);
    expect(await memory.count()).toBe(1);
    const filtered = await remember(
      memory,
      { userMessage: "[heartbeat] ping" },
      { chatModel: chatModelFor(chat.server.baseURL) },
    );
    expect(filtered).toEqual({ turn: null, facts: [], attempts: 0, triples: emptyTripleReport() });
    expect(chat.server.requests).toHaveLength(1);
  });

  it("asks again after malformed JSON, telling the model what was wrong", async () => {
    const memory = stores.sqlite();
    chat.server.reply(
      { content: "Sure! The user likes Neovim." },
      facts({ content: "The user edits code in Neovim", kind: "preference" }),
    );
    const result = await remember(memory, TURN, { chatModel: chatModelFor(chat.server.baseURL) });
    expect(result.attempts).toBe(2);
    expect(result.facts).toHaveLength(1);
    expect(chat.server.userMessages()[1]?.at(-1)).toMatch(/not valid JSON/);
  });

  it("asks again after JSON of the wrong shape, then fails with a typed error and keeps the turn", async () => {
    const memory = stores.sqlite();
    const wrong = { content: JSON.stringify({ facts: [{ content: "", kind: "mood" }] }) };
    chat.server.reply(wrong, { content: JSON.stringify({ memories: [] }) });
    const error = await remember(memory, TURN, {
      chatModel: chatModelFor(chat.server.baseURL),
    }).then(
      () => null,
      (caught: unknown) => caught,
    );
    expect(ChatOutputError.isInstance(error)).toBe(true);
    const typed = error as ChatOutputError;
    expect(typed.code).toBe("BACKEND_UNAVAILABLE");
    expect(typed.task).toBe("remember");
    expect(typed.problems.join(" ")).toMatch(/facts/);
    expect(typed.details?.attempts).toBe(2);
    // The correction named the first answer's problems.
    expect(chat.server.userMessages()[1]?.at(-1)).toMatch(/facts\.0\.(content|kind)/);
    const turnKey = typed.details?.turnKey as string;
    expect(typed.message).toContain(turnKey);
    expect((await memory.get(turnKey))?.content).toBe(TURN.userMessage);
    expect(await memory.count({ categories: ["core"] })).toBe(0);
  });

  it("retries: 0 fails after one unusable answer", async () => {
    const memory = stores.sqlite();
    chat.server.reply({ content: "[1, 2, 3]" });
    await expect(
      remember(memory, TURN, { chatModel: chatModelFor(chat.server.baseURL), retries: 0 }),
    ).rejects.toSatisfy((error) => ChatOutputError.isInstance(error));
    expect(chat.server.requests).toHaveLength(1);
    expect(await memory.count({ categories: ["conversation"] })).toBe(1);
  });

  it("keeps the turn when the server answers HTTP 500 (after the model's own retry)", async () => {
    const memory = stores.sqlite();
    chat.server.reply({ status: 500 }, { status: 500 });
    const error = await remember(memory, TURN, {
      chatModel: chatModelFor(chat.server.baseURL),
    }).catch((caught: unknown) => caught);
    expect(ChatOutputError.isInstance(error)).toBe(true);
    expect(MemoryError.hasCode(error, "BACKEND_UNAVAILABLE")).toBe(true);
    expect((error as Error).message).toMatch(/HTTP 500/);
    expect(chat.server.requests).toHaveLength(2);
    expect(await memory.count({ categories: ["conversation"] })).toBe(1);
  });

  it("a slow answer times out with a TIMEOUT error; the turn stays", async () => {
    const memory = stores.sqlite();
    const slow = gate();
    chat.server.reply({ ...facts(), release: slow.release });
    const chatModel = chatModelFor(chat.server.baseURL, { timeoutMs: 300 });
    const error = await remember(memory, TURN, { chatModel: chatModel }).catch(
      (caught: unknown) => caught,
    );
    slow.open();
    expect(ChatOutputError.isInstance(error)).toBe(true);
    expect(MemoryError.hasCode(error, "TIMEOUT")).toBe(true);
    expect(await memory.count({ categories: ["conversation"] })).toBe(1);
  });

  it("a slow answer that arrives within the timeout is used", async () => {
    const memory = stores.sqlite();
    const slow = gate();
    chat.server.reply({
      ...facts({ key: "user_city", content: "The user lives in Lyon", kind: "biographical" }),
      release: slow.release,
    });
    const pending = remember(
      memory,
      { userMessage: "I live in Lyon" },
      {
        chatModel: chatModelFor(chat.server.baseURL),
      },
    );
    // The turn is stored before the model answers.
    await expect.poll(() => memory.count({ categories: ["conversation"] })).toBe(1);
    expect(await memory.count({ categories: ["core"] })).toBe(0);
    slow.open();
    const result = await pending;
    expect(result.facts.map((fact) => fact.key)).toEqual(["user_city"]);
  });

  it("an upsert on the fact's key replaces the older fact (same key, new content)", async () => {
    const memory = stores.sqlite();
    chat.server.reply(
      facts({ key: "user_editor", content: "The user edits code in Vim", kind: "preference" }),
      facts({ key: "user_editor", content: "The user edits code in Neovim", kind: "preference" }),
    );
    const chatModel = chatModelFor(chat.server.baseURL);
    await remember(memory, { userMessage: "I use Vim" }, { chatModel });
    await remember(memory, { userMessage: "Now I use Neovim" }, { chatModel });
    expect((await memory.get("user_editor"))?.content).toBe("The user edits code in Neovim");
    expect(await memory.count({ categories: ["core"] })).toBe(1);
  });
});

describe("remember (PostgreSQL)", () => {
  it("stores the turn and the facts", async () => {
    const memory = stores.postgres();
    chat.server.reply(facts({ key: "user_tz", content: "The user works in UTC+2", kind: "fact" }));
    const result = await remember(
      memory,
      { userMessage: "I work in UTC+2" },
      {
        chatModel: chatModelFor(chat.server.baseURL),
      },
    );
    expect(result.facts.map((fact) => fact.key)).toEqual(["user_tz"]);
    expect(await memory.count({ categories: ["core"] })).toBe(1);
    expect(await memory.count({ categories: ["conversation"] })).toBe(1);
  });
});
