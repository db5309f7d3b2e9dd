import { existsSync, readFileSync } from "node:fs";
import { ChatServer } from "@memory/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { json, requireBuiltCli, Workspace } from "./helpers/run-memory.js";

interface Report {
  path: string;
  dryRun: boolean;
  written: boolean;
  entriesBefore: number;
  entriesAfter: number;
  addedKeys: string[];
  changedKeys: string[];
  removedKeys: string[];
  diff: string;
  backup: string | null;
}

const env = { env: { MEMORY_CHAT_API_KEY: "sk-test" } };

describe("memory consolidate --files", () => {
  requireBuiltCli();
  let server: ChatServer;
  let ws: Workspace;
  let before: string;
  const core = () => readFileSync(ws.file("tree/MEMORY.md"), "utf8");
  const line = (key: string) =>
    before.split("\n").find((text) => text.startsWith(`- **${key}**:`)) as string;

  beforeAll(async () => {
    server = await ChatServer.start();
    ws = new Workspace(
      '\n[markdown]\npath = "tree"\nindex = false\n',
      [
        'backend = "markdown"',
        'embedding_provider = "noop"',
        `chat_provider = "custom:${server.baseURL}"`,
        'chat_model = "scripted-chat"',
      ].join("\n"),
    );
    for (const [key, content, category] of [
      ["editor", "The user edits code in Neovim", "core"],
      ["city", "The user lives in Paris", "core"],
      ["standup", "I moved to Lyon last week", "daily"],
    ] as const) {
      const stored = await ws.run(["store", content, "--key", key, "--category", category]);
      expect(stored.code, stored.stderr).toBe(0);
    }
    before = core();
  }, 300_000);
  afterAll(async () => {
    ws.remove();
    await server.close();
  });

  it("shows the diff on a dry run and changes nothing", async () => {
    server.reset();
    server.reply({ content: `${line("editor")}\n- **city**: The user moved to Lyon last week\n` });
    const result = await ws.run(["consolidate", "--files", "--dry-run", "--json"], env);
    expect(result.code, result.stderr).toBe(0);
    const report = json<Report>(result);
    expect(report).toMatchObject({
      path: "MEMORY.md",
      dryRun: true,
      written: false,
      changedKeys: ["city"],
      backup: null,
    });
    expect(report.diff).toContain("+- **city**: The user moved to Lyon last week");
    expect(core()).toBe(before);
  });

  it("refuses to drop more than 25% of the entries without --force, then applies with it", async () => {
    server.reset();
    const answer = { content: "- **city**: The user moved to Lyon last week\n" };
    server.reply(answer);
    const refused = await ws.run(["consolidate", "--files"], env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/1 of 2 entries \(50%\).*--force/);
    expect(core()).toBe(before);

    server.reply(answer);
    const applied = await ws.run(["consolidate", "--files", "--force", "--days", "2"], env);
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stdout).toContain("consolidated MEMORY.md with");
    expect(applied.stdout).toContain("removed editor");
    expect(applied.stdout).toContain("-- **editor**: The user edits code in Neovim");
    const backup = /previous version kept in (\S+)/.exec(applied.stdout)?.[1] as string;
    expect(readFileSync(ws.file(`tree/${backup}`), "utf8")).toBe(before);
    const city = await ws.run(["get", "city", "--json"]);
    expect(json<{ content: string }>(city).content).toBe("The user moved to Lyon last week");
  });

  it("fails clearly on another backend, without a chat model, and with turn options", async () => {
    const sqlite = new Workspace("", 'embedding_provider = "noop"\nchat_provider = "openai"');
    try {
      const other = await sqlite.run(["consolidate", "--files", "--json"], env);
      expect(other.code).toBe(1);
      expect(other.stderr).toMatch(/UNSUPPORTED|needs the markdown backend/);
      expect(existsSync(sqlite.file("brain.db"))).toBe(false);
    } finally {
      sqlite.remove();
    }
    const noChat = new Workspace(
      '\n[markdown]\npath = "tree"\n',
      'backend = "markdown"\nembedding_provider = "noop"',
    );
    try {
      const result = await noChat.run(["consolidate", "--files"]);
      expect(result.code).not.toBe(0);
      expect(result.stderr).toContain("chat_provider");
    } finally {
      noChat.remove();
    }
    const usage = await ws.run(["consolidate", "--days", "3", "hello"]);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain("--files");
  });
});
