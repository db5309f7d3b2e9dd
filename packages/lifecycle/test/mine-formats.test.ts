import { fileURLToPath } from "node:url";
import type { Memory } from "@memory/api";
import { afterEach, describe, expect, it } from "vitest";
import { exchangeKey, mineConversations } from "../src/index.js";
import { storeFactory } from "./support/stores.js";

const fixture = (name: string) =>
  fileURLToPath(new URL(`./fixtures/mine/${name}`, import.meta.url));
const stores = storeFactory();
afterEach(() => stores.cleanup());

async function entries(memory: Memory) {
  const list = await memory.list({ limit: 1000, categories: ["conversation"] });
  return list.sort((a, b) => a.key.localeCompare(b.key, "en") || 0);
}

describe("mine: every format through a real SQLite store", () => {
  it("Claude Code: one entry per exchange, tool calls summarised, tool results and meta kept out", async () => {
    const memory = stores.sqlite();
    const file = fixture("claude-code-session.jsonl");
    const report = await mineConversations(memory, [file]);
    expect(report).toMatchObject({ files: 1, conversations: 1, exchanges: 2, stored: 2 });
    expect(report.skipped).toEqual([
      { path: file, line: 7, code: "MALFORMED", reason: expect.stringMatching(/^not JSON/) },
    ]);
    const first = await memory.get(exchangeKey(file, "7f3c2a10-1111-4a2b-9c3d-0123456789ab", 0));
    expect(first).toMatchObject({
      category: "conversation",
      sessionId: "7f3c2a10-1111-4a2b-9c3d-0123456789ab",
      content: [
        "User: Should we use SQLite or PostgreSQL for the app?",
        "Assistant: Let me look at the schema first.",
        "Assistant: SQLite is enough: one writer, small data.",
        "[tools used: Read, Bash]",
      ].join("\n"),
      createdAt: "2025-03-04T09:15:00.000Z",
      updatedAt: "2025-03-04T09:15:20.000Z",
    });
    const second = await memory.get(exchangeKey(file, "7f3c2a10-1111-4a2b-9c3d-0123456789ab", 1));
    // +01:00 offsets become UTC; the image is one summary line.
    expect(second).toMatchObject({
      content:
        "User: Decided: SQLite. Here is the diagram.\nAssistant: Noted, SQLite it is.\n[attachments: image]",
      createdAt: "2025-03-04T09:02:00.000Z",
      updatedAt: "2025-03-04T09:02:30.000Z",
    });
  });

  it("Codex: injected context, reasoning, tool output and event_msg duplicates kept out", async () => {
    const memory = stores.sqlite();
    const file = fixture("codex-rollout.jsonl");
    const report = await mineConversations(memory, [file]);
    expect(report).toMatchObject({
      files: 1,
      conversations: 1,
      exchanges: 2,
      stored: 2,
      skipped: [],
    });
    const list = await entries(memory);
    expect(list.map((entry) => [entry.content, entry.createdAt, entry.sessionId])).toEqual([
      [
        "User: Run the tests and tell me what fails.\nAssistant: One test fails: the date parser ignores offsets.\n[tools used: shell]",
        "2025-10-29T00:59:40.000Z",
        "019a2d7a-41c4-78b1-b7cc-a45d62a89cd5",
      ],
      [
        "User: Fix it.\nAssistant: Fixed: the parser keeps the offset now.",
        "2025-10-29T08:05:00.000Z",
        "019a2d7a-41c4-78b1-b7cc-a45d62a89cd5",
      ],
    ]);
  });

  it("ChatGPT: follows the branch that ends at current_node, summarises code calls and images", async () => {
    const memory = stores.sqlite();
    const file = fixture("chatgpt-conversations.json");
    const report = await mineConversations(memory, [file]);
    expect(report).toMatchObject({ files: 1, conversations: 2, exchanges: 3, stored: 3 });
    expect(report.skipped).toEqual([
      {
        path: file,
        line: expect.any(Number),
        code: "MALFORMED",
        reason: "conversation 3 has no mapping or current_node",
      },
    ]);
    const lisbon = "6630a1b2-0000-4000-8000-00000000c0a1";
    expect(await memory.get(exchangeKey(file, lisbon, 1))).toMatchObject({
      content:
        "User: Make it four days, and I hate early flights.\nAssistant: Four days, with an afternoon flight.",
      sessionId: lisbon,
      createdAt: "2024-05-01T08:03:20.000Z",
    });
    const all = (await entries(memory)).map((entry) => entry.content).join("\n");
    expect(all).not.toContain("five days");
    expect(all).not.toContain("Five days");
    const chart = await memory.get(exchangeKey(file, "6630a1b2-0000-4000-8000-00000000c0a2", 0));
    // The user message has no create_time: the conversation's time stands in.
    expect(chart).toMatchObject({
      content:
        "User: What is in this chart? Compute the mean.\nAssistant: The mean is 2.\n[tools used: python]\n[attachments: sales.png, image]",
      createdAt: "2024-05-02T08:53:30.000Z",
      updatedAt: "2024-05-02T08:53:35.000Z",
    });
  });

  it("Claude.ai: chat_messages with attachments and tool use; an empty conversation adds nothing", async () => {
    const memory = stores.sqlite();
    const file = fixture("claude-ai-conversations.json");
    const report = await mineConversations(memory, [file]);
    expect(report).toMatchObject({
      files: 1,
      conversations: 2,
      exchanges: 2,
      stored: 2,
      skipped: [],
    });
    const list = await entries(memory);
    expect(list.map((entry) => [entry.content, entry.createdAt])).toEqual([
      [
        "User: Our queries are slow; here is the plan.\nAssistant: Add an index on orders(customer_id).\n[tools used: web_search]\n[attachments: explain.txt]",
        "2024-06-10T08:00:00.000Z",
      ],
      ["User: We will add it tonight.\n[attachments: dashboard.png]", "2024-06-10T08:04:00.000Z"],
    ]);
    expect(list.map((entry) => entry.content).join("\n")).not.toContain("Seq Scan");
  });

  it("Slack: channels and DMs with speakers' names, threads grouped across days, notices dropped", async () => {
    const memory = stores.sqlite();
    const root = fixture("slack");
    const report = await mineConversations(memory, [root]);
    expect(report).toMatchObject({
      files: 1,
      conversations: 2,
      exchanges: 3,
      stored: 3,
      skipped: [],
    });
    const general = await memory.get(exchangeKey(root, "slack:general", 0));
    expect(general).toMatchObject({
      sessionId: "slack:general",
      content:
        "Ana Souza: Release is Friday. @Ben Okafor can you take the changelog?\nBen Okafor: Yes, on it.\nAna Souza: Thanks, changelog looks good.",
      createdAt: "2024-03-01T09:00:00.000Z",
      updatedAt: "2024-03-02T09:00:00.000Z",
    });
    expect(await memory.get(exchangeKey(root, "slack:general", 1))).toMatchObject({
      content: "Ben Okafor: Lunch?\n[attachments: menu.pdf]",
    });
    expect(await memory.get(exchangeKey(root, "slack:D024BE91L", 0))).toMatchObject({
      content: "Ben Okafor: Can I take Monday off?\nAna Souza: Sure.",
    });
  });

  it("plain text: speaker variants, continuation lines, bracketed times with offsets", async () => {
    const memory = stores.sqlite();
    const file = fixture("transcript.txt");
    const report = await mineConversations(memory, [file]);
    expect(report).toMatchObject({
      files: 1,
      conversations: 1,
      exchanges: 3,
      stored: 3,
      skipped: [],
    });
    const list = (await entries(memory)).sort((a, b) => (a.key < b.key ? -1 : 1));
    expect(list.map((entry) => entry.content)).toEqual([
      "User: Which editor should I use for Rust?\nAssistant: Helix or VS Code with rust-analyzer.\nIt depends on whether you like modal editing.",
      "User: I prefer modal editing.\nAssistant: Then Helix.",
      "User: Does it support LSP?\nAssistant: Yes, out of the box.",
    ]);
    expect(list[0]?.createdAt).toBe("2024-05-01T08:00:00.000Z");
    expect(list[0]?.sessionId).toMatch(/^text:transcript\.txt-[0-9a-f]{8}$/);
  });

  it("a rerun updates the same entries instead of duplicating them", async () => {
    const memory = stores.sqlite();
    const folder = fixture("");
    const first = await mineConversations(memory, [folder]);
    const count = await memory.count();
    const again = await mineConversations(memory, [folder]);
    expect(again.stored).toBe(first.stored);
    expect(await memory.count()).toBe(count);
    expect(count).toBe(first.exchanges);
    expect(first.exchanges).toBe(2 + 2 + 3 + 2 + 3 + 3);
  });

  it("a dry run reports what would be stored and stores nothing", async () => {
    const memory = stores.sqlite();
    const file = fixture("codex-rollout.jsonl");
    const report = await mineConversations(memory, [file], { dryRun: true, category: "history" });
    expect(report).toMatchObject({ dryRun: true, exchanges: 2, stored: 0 });
    expect(report.preview?.map((item) => [item.key, item.line])).toEqual([
      [exchangeKey(file, "019a2d7a-41c4-78b1-b7cc-a45d62a89cd5", 0), 3],
      [exchangeKey(file, "019a2d7a-41c4-78b1-b7cc-a45d62a89cd5", 1), 10],
    ]);
    expect(await memory.count()).toBe(0);
  });

  it("stores into the given namespace and category", async () => {
    const memory = stores.sqlite();
    await mineConversations(memory, [fixture("transcript.txt")], {
      namespace: "ana",
      category: "history",
    });
    expect(await memory.count({ namespace: "ana", categories: ["history"] })).toBe(3);
    expect(await memory.count()).toBe(0);
  });
});
