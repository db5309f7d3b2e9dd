import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { copyFileSync, readFileSync, writeFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BIN, cleanEnv, json, Workspace } from "./helpers/run-memory.js";

const FIXTURES = new URL("./fixtures/claude-code/", import.meta.url);
const TRANSCRIPT = fileURLToPath(new URL("transcript.jsonl", FIXTURES));
const SLOW_WORK = fileURLToPath(new URL("slow-hook-work.mjs", FIXTURES));
const HOLD_LOCK = fileURLToPath(new URL("hold-lock.cjs", FIXTURES));
const TRACE_HOOK = fileURLToPath(new URL("./helpers/register-import-trace.mjs", import.meta.url));
// Any file of @memory/sqlite: better-sqlite3 is resolved from there (it is not our dependency).
const SQLITE_ENTRY = fileURLToPath(import.meta.resolve("@memory/sqlite"));
/** better-sqlite3's busy_timeout in @memory/sqlite: how long a blocked open waits by itself. */
const SQLITE_BUSY_TIMEOUT_MS = 5_000;

interface Entry {
  key: string;
  content: string;
  category: string;
  sessionId?: string;
}

// The payloads as Claude Code documents them (hooks reference: common fields + per-event ones).
const SESSION_ID = "9f6d0c2e-6a38-4f0e-b1d7-3c2a55e1a0f4";
function payload(event: string, fields: Record<string, unknown>): string {
  return JSON.stringify({
    session_id: SESSION_ID,
    transcript_path: TRANSCRIPT,
    cwd: "/home/dev/shop",
    hook_event_name: event,
    ...fields,
  });
}
const PROMPT = payload("UserPromptSubmit", {
  prompt: "which tools does the project use: pnpm workspaces?",
});

// Tests of what a hook prints pass a budget far above any start-up time, so a busy machine
// cannot turn them into fail-open runs; the budget itself is tested below.
const AMPLE = ["--budget-ms", "120000"];

describe("memory hook: Claude Code's payloads on a working store", () => {
  let ws: Workspace;
  beforeAll(async () => {
    // Configured with the local model, which the hooks must not load (see the trace test).
    ws = new Workspace("", 'embedding_provider = "local"');
    const noop = { env: { MEMORY_EMBEDDING_PROVIDER: "noop" } };
    await ws.run(["store", "The project uses pnpm workspaces and turbo", "-k", "tooling"], noop);
    await ws.run(["store", "The user prefers dark roast coffee", "-k", "coffee"], noop);
  });
  afterAll(() => ws.remove());

  it("prompt prints the memory context for the prompt (UserPromptSubmit stdout, exit 0)", async () => {
    const result = await ws.run(["hook", "prompt", ...AMPLE], { input: PROMPT });
    expect(result).toMatchObject({ code: 0, stderr: "" });
    expect(result.stdout).toContain("[Memory context]");
    expect(result.stdout).toContain("tooling: The project uses pnpm workspaces and turbo");
    expect(result.stdout).not.toContain("coffee");
  });

  it("prompt prints nothing for a prompt that nothing in memory answers", async () => {
    const result = await ws.run(["hook", "prompt", ...AMPLE], {
      input: payload("UserPromptSubmit", { prompt: "zzyzx qwertyuiop" }),
    });
    expect(result).toEqual({ code: 0, stdout: "", stderr: "" });
  });

  it("prompt never loads the embedding model (keyword-only: tfjs is not imported)", async () => {
    const trace = ws.file("trace-prompt.txt");
    writeFileSync(trace, "");
    const result = await ws.run(["hook", "prompt", ...AMPLE], {
      input: PROMPT,
      nodeArgs: ["--import", TRACE_HOOK],
      env: { IMPORT_TRACE_FILE: trace },
    });
    expect(result.stdout).toContain("tooling");
    const urls = readFileSync(trace, "utf8");
    // The child that did the work traced its imports too: the store is there, and neither tfjs
    // nor @memory/embeddings (whose local provider would start the model) was even imported.
    expect(urls).toContain("/packages/sqlite/");
    expect(urls).not.toMatch(/@tensorflow|\/packages\/embeddings\//);
  });

  it("session-start prints the top core memories", async () => {
    const result = await ws.run(["hook", "session-start", ...AMPLE], {
      input: payload("SessionStart", { source: "startup" }),
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("tooling: The project uses pnpm workspaces and turbo");
    expect(result.stdout).toContain("coffee: The user prefers dark roast coffee");
  });

  it("stop autosaves the last turn of the transcript the payload names", async () => {
    const result = await ws.run(["hook", "stop", ...AMPLE], {
      input: payload("Stop", { stop_hook_active: false }),
    });
    expect(result).toEqual({ code: 0, stdout: "", stderr: "" });
    const { entries } = json<{ entries: Entry[] }>(
      await ws.run(["list", "--json", "--session", SESSION_ID, "--category", "conversation"]),
    );
    // The last real prompt, not the tool result that followed it nor the earlier question.
    expect(entries.map((entry) => entry.content)).toEqual([
      "The staging deploy fails with DATABASE_URL missing, can you fix the workflow?",
    ]);
    const daily = json<{ entries: Entry[] }>(
      await ws.run(["list", "--json", "--category", "daily"]),
    );
    expect(
      daily.entries.some((entry) =>
        entry.content.startsWith("The deploy job never sets DATABASE_URL"),
      ),
    ).toBe(true);
    // The reply was feedback on the session's last context (its recall id, kept by the prompt
    // hook): it quotes nothing of the tooling entry, so that counts as ignored.
    const usage = json<{ entries: { key: string; stats: { used: number; ignored: number } }[] }>(
      await ws.run(["usage", "--json", "--limit", "10"]),
    );
    expect(usage.entries.find((entry) => entry.key === "tooling")?.stats).toMatchObject({
      used: 0,
      ignored: 1,
    });
  });

  it("codex-notify autosaves the turn of an agent-turn-complete notification", async () => {
    const notification = JSON.stringify({
      type: "agent-turn-complete",
      "thread-id": "codex-thread-1",
      "turn-id": "12",
      cwd: ws.dir,
      "input-messages": ["Rename the billing module to invoices"],
      "last-assistant-message": "Renamed src/billing to src/invoices and updated the imports.",
    });
    const result = await ws.run(["hook", "codex-notify", notification, ...AMPLE]);
    expect(result).toEqual({ code: 0, stdout: "", stderr: "" });
    const { entries } = json<{ entries: Entry[] }>(
      await ws.run(["list", "--json", "--session", "codex-thread-1"]),
    );
    expect(entries.map((entry) => entry.content)).toContain(
      "Rename the billing module to invoices",
    );
  });
});

describe("memory hook fails open: nothing on stdout, exit 0", () => {
  let ws: Workspace;
  beforeAll(async () => {
    ws = new Workspace();
    await ws.run(["store", "The project uses pnpm workspaces and turbo", "-k", "tooling"]);
  });
  afterAll(() => ws.remove());

  it("when the configuration file is missing", async () => {
    const result = await ws.run(["--config", ws.file("missing.toml"), "hook", "prompt"], {
      input: PROMPT,
    });
    expect(result).toEqual({ code: 0, stdout: "", stderr: "" });
  });

  it("when the store cannot be opened (its directory is a file)", async () => {
    copyFileSync(TRANSCRIPT, ws.file("not-a-dir"));
    ws.writeConfig("broken.toml", '[memory]\n[sqlite]\npath = "not-a-dir/brain.db"\n');
    const result = await ws.run(["--config", ws.file("broken.toml"), "hook", "session-start"], {
      input: payload("SessionStart", { source: "startup" }),
    });
    expect(result).toEqual({ code: 0, stdout: "", stderr: "" });
  });

  it("when stdin is not JSON, or the transcript does not exist", async () => {
    expect(await ws.run(["hook", "prompt"], { input: "{not json" })).toEqual({
      code: 0,
      stdout: "",
      stderr: "",
    });
    const missing = payload("Stop", { transcript_path: ws.file("gone.jsonl") });
    expect(await ws.run(["hook", "stop"], { input: missing })).toEqual({
      code: 0,
      stdout: "",
      stderr: "",
    });
  });

  it("when the store is locked: it gives up at the budget, before SQLite's own 5 s wait", async () => {
    const holder = await holdLock(ws.file("brain.db"));
    try {
      const started = performance.now();
      const result = await ws.run(["hook", "prompt", "--budget-ms", "1000"], { input: PROMPT });
      const elapsed = performance.now() - started;
      expect(result).toEqual({ code: 0, stdout: "", stderr: "" });
      // Not a performance bound: without the watchdog the hook waits busy_timeout and more
      // (withBusyRetry) while the lock is held, and the lock is held until after this line.
      expect(elapsed).toBeLessThan(SQLITE_BUSY_TIMEOUT_MS);
    } finally {
      holder.stdin?.end();
    }
    // The same prompt answers again once the lock is gone.
    const unlocked = await ws.run(["hook", "prompt", ...AMPLE], { input: PROMPT });
    expect(unlocked.stdout).toContain("tooling");
  });

  it("when the work is slow: MEMORY_HOOK_BUDGET_MS ends it, the host gets nothing", async () => {
    const started = performance.now();
    const result = await ws.run(["hook", "prompt"], {
      input: PROMPT,
      nodeArgs: ["--import", SLOW_WORK],
      env: { MEMORY_HOOK_BUDGET_MS: "1000" },
    });
    expect(result).toEqual({ code: 0, stdout: "", stderr: "" });
    // The slow child sleeps 60 s; returning long before that means it was killed at the budget.
    expect(performance.now() - started).toBeLessThan(30_000);
  });
});

describe("memory hook prompt --server: asks a running memory serve first", () => {
  let served: Workspace;
  let local: Workspace;
  let server: ChildProcess;
  beforeAll(async () => {
    // Two stores: the server's knows the deploy fact, the hook's own store does not, so the
    // answer says which one was asked.
    served = new Workspace();
    await served.run(["store", "Deploys run from the release branch on Fridays", "-k", "deploys"]);
    server = spawn(
      process.execPath,
      [BIN, "serve", "--port", "0", "--allow-unauthenticated-loopback", "--json"],
      { cwd: served.dir, env: cleanEnv(served.dir), stdio: ["ignore", "pipe", "inherit"] },
    );
    const [line] = (await once(createInterface({ input: server.stdout! }), "line")) as [string];
    const port = new URL((JSON.parse(line) as { url: string }).url).port;
    local = new Workspace(`\n[server]\nport = ${port}\n`);
    await local.run(["store", "The project uses pnpm workspaces and turbo", "-k", "tooling"]);
  });
  afterAll(async () => {
    server.kill("SIGTERM");
    await once(server, "exit");
    served.remove();
    local.remove();
  });

  const deployPrompt = payload("UserPromptSubmit", {
    prompt: "when do deploys run from the release branch?",
  });

  it("prints the server's context when the server answers", async () => {
    const result = await local.run(["hook", "prompt", "--server", ...AMPLE], {
      input: deployPrompt,
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("deploys: Deploys run from the release branch on Fridays");
  });

  it("without --server, recalls from its own store only", async () => {
    const result = await local.run(["hook", "prompt", ...AMPLE], { input: deployPrompt });
    expect(result).toEqual({ code: 0, stdout: "", stderr: "" });
  });

  it("falls back to its own store when no server listens", async () => {
    const alone = new Workspace("\n[server]\nport = 9\n");
    try {
      await alone.run(["store", "The project uses pnpm workspaces and turbo", "-k", "tooling"]);
      const result = await alone.run(["hook", "prompt", "--server", ...AMPLE], { input: PROMPT });
      expect(result.code).toBe(0);
      expect(result.stdout).toContain("tooling: The project uses pnpm workspaces and turbo");
    } finally {
      alone.remove();
    }
  });
});

/** Starts a process that holds an exclusive lock on the database until its stdin ends. */
function holdLock(file: string): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [HOLD_LOCK, SQLITE_ENTRY, file], {
      stdio: ["pipe", "pipe", "inherit"],
    });
    child.on("error", reject);
    child.stdout?.once("data", () => resolve(child));
  });
}
