import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { exchangeKey, mineConversations, synthesizedFactKey } from "../src/index.js";
import { chatModelFor, useChatFixture } from "./support/stores.js";

const chat = useChatFixture();
const codex = fileURLToPath(new URL("./fixtures/mine/codex-rollout.jsonl", import.meta.url));
const claudeAi = fileURLToPath(
  new URL("./fixtures/mine/claude-ai-conversations.json", import.meta.url),
);
const SESSION = "019a2d7a-41c4-78b1-b7cc-a45d62a89cd5";
const facts = (...list: unknown[]) => ({ content: JSON.stringify({ facts: list }) });

describe("mine --synthesize (SQLite, loopback OpenAI-compatible server)", () => {
  it("stores each extracted fact as core, keyed under its source exchange", async () => {
    const memory = chat.stores.sqlite();
    chat.server.reply(
      facts(
        { content: "The date parser must keep time zone offsets", kind: "problem", exchange: 1 },
        { content: "The offset bug in the date parser was fixed", kind: "milestone", exchange: 2 },
      ),
    );
    const report = await mineConversations(memory, [codex], {
      chatModel: chatModelFor(chat.server.baseURL),
    });
    expect(report.synthesis).toMatchObject({ extracted: 2, saved: 2, failed: 0, problems: [] });
    const source = exchangeKey(codex, SESSION, 1);
    const key = synthesizedFactKey(
      source,
      "milestone",
      "The offset bug in the date parser was fixed",
    );
    expect(key).toBe(`${source}/fact/milestone_the_offset_bug_in_the_date`);
    expect(await memory.get(key)).toMatchObject({
      category: "core",
      sessionId: SESSION,
      content: "The offset bug in the date parser was fixed",
    });
    expect(await memory.get(key.split("/fact/")[0]!)).toMatchObject({ category: "conversation" });
    // The model saw the conversation's exchanges, numbered.
    expect(chat.server.userMessages()[0]?.[0]).toMatch(/^## Exchange 1\nUser: Run the tests/);
    expect(await memory.count()).toBe(4);
  });

  it("a model failure is counted and never undoes the import; the next conversation goes on", async () => {
    const memory = chat.stores.sqlite();
    // The first conversation's model call fails (HTTP 500, retried once by the model), the
    // second answers.
    chat.server.reply(
      { status: 500 },
      { status: 500 },
      facts({ content: "Orders get an index on customer_id", kind: "decision", exchange: 1 }),
    );
    const report = await mineConversations(memory, [codex, claudeAi], {
      chatModel: chatModelFor(chat.server.baseURL),
    });
    expect(report.stored).toBe(4);
    expect(report.synthesis).toMatchObject({ extracted: 1, saved: 1, failed: 1 });
    expect(report.synthesis?.problems[0]).toMatch(new RegExp(`^${SESSION}: .*stays imported`));
    expect(await memory.count({ categories: ["conversation"] })).toBe(4);
    expect(await memory.count({ categories: ["core"] })).toBe(1);
  });

  it("an answer that names an exchange that does not exist is asked again, then counted as failed", async () => {
    const memory = chat.stores.sqlite();
    const bad = facts({ content: "Something", kind: "decision", exchange: 9 });
    chat.server.reply(bad, bad);
    const report = await mineConversations(memory, [codex], {
      chatModel: chatModelFor(chat.server.baseURL),
    });
    expect(report.synthesis).toMatchObject({ extracted: 0, saved: 0, failed: 1 });
    expect(report.synthesis?.problems[0]).toMatch(/exchange 9 does not exist/);
    expect(await memory.count()).toBe(2);
  });
});
