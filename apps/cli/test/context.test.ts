import { spawn } from "node:child_process";
import { once } from "node:events";
import { createInterface } from "node:readline";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BIN, cleanEnv, json, Workspace } from "./helpers/run-memory.js";

interface ContextBody {
  context: string;
  entries: { key: string; content: string; score?: number }[];
  truncated: boolean;
}

// memory.toml's auto_recall* are the defaults of `memory context`, as of POST /v1/context.
const CONFIGURED = 'embedding_provider = "noop"\nauto_recall_limit = 1\nauto_recall_min_score = 0';

describe("memory context", () => {
  let ws: Workspace;
  beforeAll(async () => {
    ws = new Workspace("", CONFIGURED);
    for (const [key, content] of [
      ["editor", "The user edits code in Neovim"],
      ["editor-theme", "The user's editor theme is dark"],
    ] as const) {
      const stored = await ws.run(["store", "--key", key, content]);
      expect(stored.code, stored.stderr).toBe(0);
    }
  });
  afterAll(() => ws.remove());

  it("takes limit and minScore from memory.toml, under what the options give", async () => {
    const configured = json<ContextBody>(await ws.run(["context", "editor", "--json"]));
    expect(configured.entries).toHaveLength(1);
    const wider = json<ContextBody>(await ws.run(["context", "editor", "--limit", "5", "--json"]));
    expect(wider.entries.map((entry) => entry.key).sort()).toEqual(["editor", "editor-theme"]);
    const strict = json<ContextBody>(
      await ws.run(["context", "editor", "--limit", "5", "--min-score", "1", "--json"]),
    );
    expect(strict).toEqual({ context: "", entries: [], truncated: false });
  });

  it("prints the block alone, and nothing on stdout when nothing is relevant", async () => {
    const asJson = json<ContextBody>(await ws.run(["context", "editor", "-l", "5", "--json"]));
    const plain = await ws.run(["context", "editor", "-l", "5"]);
    expect(plain.code, plain.stderr).toBe(0);
    expect(plain.stdout).toBe(`${asJson.context}\n`);
    expect(plain.stdout).toMatch(/^\[Memory context\]\n- \[core \d{4}-\d{2}-\d{2}\] editor/);

    const cut = await ws.run(["context", "editor", "-l", "5", "--max-chars", "60"]);
    expect(cut.stdout.trimEnd().length).toBeLessThanOrEqual(60);
    expect(cut.stderr).toContain("cut to fit");

    const nothing = await ws.run(["context", "unrelated", "words"]);
    expect(nothing.code, nothing.stderr).toBe(0);
    expect(nothing.stdout).toBe("");
    expect(nothing.stderr).toContain("no relevant memories");
  });

  it("gives the standing core memories for an empty message", async () => {
    const start = json<ContextBody>(await ws.run(["context", "--json"]));
    expect(start.entries.map((entry) => entry.key).sort()).toEqual(["editor", "editor-theme"]);
  });

  it("--json prints what POST /v1/context answers on the same store", async () => {
    const cli = json<ContextBody>(
      await ws.run(["context", "editor", "--limit", "5", "--max-chars", "80", "--json"]),
    );
    const server = spawn(
      process.execPath,
      [BIN, "serve", "--port", "0", "--workers", "1", "--allow-unauthenticated-loopback", "--json"],
      { cwd: ws.dir, env: cleanEnv(ws.dir), stdio: ["ignore", "pipe", "pipe"] },
    );
    try {
      const [line] = (await once(createInterface({ input: server.stdout }), "line")) as [string];
      const { url } = JSON.parse(line) as { url: string };
      const response = await fetch(`${url}/v1/context`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ message: "editor", limit: 5, maxChars: 80 }),
      });
      expect(response.status).toBe(200);
      expect(cli.truncated).toBe(true);
      // Each context records what it showed under its own recallId (docs/usage.md).
      const { recallId: httpId, ...http } = (await response.json()) as ContextBody & {
        recallId?: string;
      };
      const { recallId: cliId, ...fromCli } = cli as ContextBody & { recallId?: string };
      expect([typeof httpId, typeof cliId]).toEqual(["string", "string"]);
      expect(httpId).not.toBe(cliId);
      expect(http).toEqual(fromCli);
    } finally {
      server.kill("SIGTERM");
    }
    await once(server, "exit");
  });

  it("refuses what the HTTP API refuses, naming the option, and changes nothing", async () => {
    const small = await ws.run(["context", "editor", "--max-chars", "10"]);
    expect(small.code).toBe(2);
    expect(small.stderr).toMatch(/--max-chars: .*50/);
    const many = await ws.run(["context", "editor", "--limit", "101"]);
    expect(many.code).toBe(2);
    expect(many.stderr).toMatch(/--limit: .*100/);
    const score = await ws.run(["context", "editor", "--min-score", "2"]);
    expect(score.code).toBe(2);
    expect(score.stderr).toContain("--min-score");
    const badJson = await ws.run(["context", "editor", "--max-chars", "10", "--json"]);
    expect(badJson.code).toBe(2);
    expect(badJson.stdout).toContain("--max-chars");
    expect(json<{ count: number }>(await ws.run(["count", "--json"])).count).toBe(2);
  });
});
