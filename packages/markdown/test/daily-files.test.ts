import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createOpenAIChatModel } from "@memory/embeddings/openai";
import { ChatServer } from "@memory/testkit";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { consolidateMemoryFile, createMarkdownMemory, type MarkdownMemory } from "../src/index.js";
import { tempDir } from "./helpers.js";

let server: ChatServer;
beforeAll(async () => {
  server = await ChatServer.start();
});
afterAll(async () => {
  await server.close();
});

const open: MarkdownMemory[] = [];
function memory(root: string, index = false): MarkdownMemory {
  const created = createMarkdownMemory({ root, index, logger: () => {} });
  open.push(created);
  return created;
}
afterEach(async () => {
  await Promise.all(open.splice(0).map((m) => m.close()));
});

describe("daily log files", () => {
  it("reads memory/2026-03-28-1442.md as that day's log, not as a custom category", async () => {
    const root = tempDir();
    mkdirSync(join(root, "memory"));
    writeFileSync(
      join(root, "memory", "2026-03-28-1442.md"),
      "# Session\n\n- **standup**: Moved the launch to Friday\n- **turn-1**: [Conversation] User: hi\n",
    );
    writeFileSync(join(root, "memory", "2026-03-29_09-05.md"), "- **retro**: Went well\n");
    const m = memory(root);
    expect(await m.get("standup")).toMatchObject({
      category: "daily",
      createdAt: "2026-03-28T14:42:00.000Z",
    });
    expect((await m.get("turn-1"))?.category).toBe("conversation");
    expect(await m.get("retro")).toMatchObject({
      category: "daily",
      createdAt: "2026-03-29T09:05:00.000Z",
    });
    expect(await m.problems()).toEqual([]);
  });

  it("updates an entry of a time-named log where it is", async () => {
    const root = tempDir();
    mkdirSync(join(root, "memory"));
    const file = join(root, "memory", "2026-03-28-1442.md");
    writeFileSync(file, "- **standup**: Moved the launch to Friday\n");
    const m = memory(root);
    await m.store({ key: "standup", content: "Moved the launch to Monday", category: "daily" });
    expect(readFileSync(file, "utf8")).toMatch(
      /^- \*\*standup\*\*: Moved the launch to Monday <!--/,
    );
    expect(await m.get("standup")).toMatchObject({ createdAt: "2026-03-28T14:42:00.000Z" });
    // The previous content is kept as a new entry (docs/history.md), so it goes where a new daily
    // entry of that time goes: the day's own log, not the time-named one.
    expect(readFileSync(join(root, "memory", "2026-03-28.md"), "utf8")).toMatch(
      /^# Daily log 2026-03-28\n\n- \*\*standup::history:1\*\*: Moved the launch to Friday <!-- memory .*"supersededBy":"standup".* -->\n$/,
    );
  });

  it("keeps a custom category named like a dated log in its own file", async () => {
    const root = tempDir();
    const m = memory(root);
    await m.store({ key: "k", content: "custom", category: "2026-03-28-1442" });
    expect((await memory(root).get("k"))?.category).toBe("2026-03-28-1442");
  });

  it("consolidates a day's time-suffixed logs with its daily file", async () => {
    const root = tempDir();
    const m = memory(root);
    await m.store({ key: "editor", content: "The user edits code in Neovim" });
    mkdirSync(join(root, "memory"), { recursive: true });
    writeFileSync(join(root, "memory", "2026-03-28-1442.md"), "- **gym**: Joined a climbing gym\n");
    writeFileSync(join(root, "memory", "2026-03-28.md"), "- **lunch**: Ate a sandwich\n");
    writeFileSync(join(root, "memory", "2026-03-20-0900.md"), "- **old**: Out of the period\n");
    const before = readFileSync(join(root, "MEMORY.md"), "utf8");
    server.reply({ content: `${before}- **gym**: Joined a climbing gym\n` });
    const report = await consolidateMemoryFile(m, {
      chatModel: createOpenAIChatModel({
        preset: "custom",
        baseURL: server.baseURL,
        apiKey: "sk-test",
        model: "scripted-chat",
        maxRetries: 0,
      }),
      now: new Date("2026-03-28T18:00:00.000Z"),
      days: 2,
    });
    expect(report.sources).toEqual(["memory/2026-03-28.md", "memory/2026-03-28-1442.md"]);
    expect(report).toMatchObject({ written: true, addedKeys: ["gym"] });
  });
});
