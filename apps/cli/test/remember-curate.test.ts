import type { ChatServer } from "@memory/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeChatWorkspace, openChatWorkspace } from "./helpers/chat-workspace.js";
import { json, Workspace } from "./helpers/run-memory.js";

interface Fact {
  key: string;
  kind: string;
  content: string;
  category: string;
}

let server: ChatServer;
let ws: Workspace;
// The chat model comes from the configuration: an OpenAI-compatible server on loopback.
beforeAll(async () => {
  ({ server, ws } = await openChatWorkspace(["transcripts_enabled = true"]));
});
afterAll(() => closeChatWorkspace({ server, ws }));

const facts = (...list: unknown[]) => ({ content: JSON.stringify({ facts: list }) });

describe("memory remember", () => {
  it("stores the turn and the facts the chat model extracts", async () => {
    server.reset();
    server.reply(
      facts({ key: "user_editor", content: "The user edits code in Neovim", kind: "preference" }),
    );
    const result = await ws.run(
      ["remember", "I moved to Neovim last week", "--session", "cli-1", "--json"],
      { env: { MEMORY_CHAT_API_KEY: "sk-test" } },
    );
    expect(result.code, result.stderr).toBe(0);
    const out = json<{ turn: { key: string; category: string }; facts: Fact[]; attempts: number }>(
      result,
    );
    expect(out.turn.category).toBe("conversation");
    expect(out.facts.map((fact) => [fact.key, fact.category, fact.kind])).toEqual([
      ["user_editor", "core", "preference"],
    ]);
    expect(server.requests[0]?.body.model).toBe("scripted-chat");
    const got = await ws.run(["get", "user_editor", "--json"]);
    expect(json<{ content: string }>(got).content).toBe("The user edits code in Neovim");
    // transcripts_enabled: the turn went to sessions/cli-1.jsonl under data_dir.
    const { readFileSync } = await import("node:fs");
    const transcript = readFileSync(ws.file(".memory/sessions/cli-1.jsonl"), "utf8");
    expect(JSON.parse(transcript.trim())).toMatchObject({
      type: "message",
      role: "user",
      content: "I moved to Neovim last week",
    });
  });

  it("prints the facts for humans", async () => {
    server.reset();
    server.reply(facts({ content: "The user lives in Lyon", kind: "biographical" }));
    const result = await ws.run(["remember", "I live in Lyon"]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/stored the turn as conversation_/);
    expect(result.stdout).toContain(
      "fact_biographical_the_user_lives_in_lyon (biographical): The user lives in Lyon",
    );
  });

  it("fails on answers that stay malformed, naming the stored turn, which is kept", async () => {
    server.reset();
    server.reply({ content: "no JSON here" }, { content: '{"facts": "none"}' });
    const result = await ws.run(["remember", "Let's talk about the weather", "--json"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^error: The chat model .* unusable JSON/);
    const key = /stored as (conversation_\S+);/.exec(result.stderr)?.[1];
    expect(key, result.stderr).toBeDefined();
    const got = await ws.run(["get", key as string, "--json"]);
    expect(json<{ content: string }>(got).content).toBe("Let's talk about the weather");
    expect(server.requests).toHaveLength(2);
  });

  it("without chat_provider, says how to configure one", async () => {
    const bare = new Workspace();
    try {
      const result = await bare.run(["remember", "hello"]);
      expect(result.code).not.toBe(0);
      expect(result.stderr).toMatch(/chat_provider/);
    } finally {
      bare.remove();
    }
  });
});

describe("memory curate and memory jobs", () => {
  it("--dry-run --json reports the validated proposal and changes nothing", async () => {
    for (const [key, content, category] of [
      ["d1", "Fixed the flaky login test", "daily"],
      ["d2", "Said hello", "daily"],
    ]) {
      const stored = await ws.run([
        "store",
        content as string,
        "-k",
        key as string,
        "-c",
        category as string,
      ]);
      expect(stored.code, stored.stderr).toBe(0);
    }
    server.reset();
    server.reply({ content: JSON.stringify({ delete: ["d2"], merge: [] }) });
    const result = await ws.run(["curate", "--dry-run", "--json"]);
    expect(result.code, result.stderr).toBe(0);
    const report = json<{
      dryRun: boolean;
      deleted: { key: string }[];
      before: { total: number };
      after: { total: number };
    }>(result);
    expect(report.dryRun).toBe(true);
    expect(report.deleted.map((item) => item.key)).toEqual(["d2"]);
    expect(report.after.total).toBe(report.before.total - 1);
    const got = await ws.run(["get", "d2"]);
    expect(got.code).toBe(0);
  });

  it("applies the proposal, and memory jobs shows the run", async () => {
    server.reset();
    server.reply({ content: JSON.stringify({ delete: ["d2"], merge: [] }) });
    const result = await ws.run(["curate"]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/deleted\s+default\s+d2/);
    expect((await ws.run(["get", "d2"])).code).toBe(3);

    const jobs = await ws.run(["jobs", "--json"]);
    expect(jobs.code, jobs.stderr).toBe(0);
    const curate = json<{
      jobs: { name: string; enabled: boolean; runs: number; lastRunAt: string | null }[];
    }>(jobs).jobs.find((job) => job.name === "curate");
    expect(curate?.enabled).toBe(true);
    expect(curate?.lastRunAt).not.toBeNull();
    const table = await ws.run(["jobs"]);
    expect(table.stdout).toMatch(/curate\s+yes.*1 deleted, 0 merged/);
  });

  it("an invalid proposal (deleting a core entry) fails and changes nothing", async () => {
    server.reset();
    server.reply(
      { content: JSON.stringify({ delete: ["user_editor"] }) },
      { content: JSON.stringify({ delete: ["user_editor"] }) },
    );
    const result = await ws.run(["curate"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/core entr/);
    expect((await ws.run(["get", "user_editor"])).code).toBe(0);
  });
});
