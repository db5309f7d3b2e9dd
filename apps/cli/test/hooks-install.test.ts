import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { json, runMemory, Workspace } from "./helpers/run-memory.js";

interface CommandHook {
  type: string;
  command: string;
  timeout?: number;
}
interface Settings {
  hooks?: Record<string, { matcher?: string; hooks: CommandHook[] }[]>;
  [key: string]: unknown;
}

const OTHER_HOOK = { type: "command", command: "./scripts/lint-on-save.sh", timeout: 30 };

describe("memory hooks install claude-code", () => {
  let ws: Workspace;
  let settingsFile: string;
  beforeEach(() => {
    ws = new Workspace();
    settingsFile = ws.file(".claude/settings.json");
  });
  afterEach(() => ws.remove());

  const settings = () => JSON.parse(readFileSync(settingsFile, "utf8")) as Settings;

  it("writes the three hooks into ./.claude/settings.json with timeouts above the budgets", async () => {
    const result = await ws.run(["hooks", "install", "claude-code", "--project", "--json"]);
    expect(result.code, result.stderr).toBe(0);
    expect(json(result)).toMatchObject({ agent: "claude-code", changed: true });
    expect(settings().hooks).toEqual({
      SessionStart: [
        { hooks: [{ type: "command", command: "memory hook session-start", timeout: 5 }] },
      ],
      UserPromptSubmit: [
        { hooks: [{ type: "command", command: "memory hook prompt", timeout: 5 }] },
      ],
      Stop: [{ hooks: [{ type: "command", command: "memory hook stop", timeout: 13 }] }],
    });
  });

  it("is idempotent: a second install leaves the file byte for byte as it was", async () => {
    await ws.run(["hooks", "install", "claude-code"]);
    const first = readFileSync(settingsFile, "utf8");
    const again = await ws.run(["hooks", "install", "claude-code", "--json"]);
    expect(json(again)).toMatchObject({ changed: false });
    expect(readFileSync(settingsFile, "utf8")).toBe(first);
  });

  it("keeps the user's other settings and hooks, and --remove takes out only memory's", async () => {
    mkdirSync(path.dirname(settingsFile), { recursive: true });
    const original: Settings = {
      model: "sonnet",
      permissions: { allow: ["Bash(pnpm test)"] },
      hooks: {
        Stop: [{ hooks: [OTHER_HOOK] }],
        PostToolUse: [{ matcher: "Edit", hooks: [OTHER_HOOK] }],
      },
    };
    writeFileSync(settingsFile, JSON.stringify(original, null, 2));

    await ws.run(["hooks", "install", "claude-code", "--command", "/opt/memory/bin/memory"]);
    const installed = settings();
    expect(installed.model).toBe("sonnet");
    expect(installed.hooks?.PostToolUse).toEqual(original.hooks?.PostToolUse);
    expect(installed.hooks?.Stop?.flatMap((group) => group.hooks)).toEqual([
      OTHER_HOOK,
      { type: "command", command: "/opt/memory/bin/memory hook stop", timeout: 13 },
    ]);

    const removed = await ws.run(["hooks", "install", "claude-code", "--remove"]);
    expect(removed.code, removed.stderr).toBe(0);
    expect(settings()).toEqual(original);
  });

  it("--server makes the prompt hook ask the server; reinstalling without it switches back", async () => {
    await ws.run(["hooks", "install", "claude-code", "--server"]);
    const prompt = () => settings().hooks?.UserPromptSubmit?.flatMap((group) => group.hooks);
    expect(prompt()).toEqual([
      { type: "command", command: "memory hook prompt --server", timeout: 5 },
    ]);
    await ws.run(["hooks", "install", "claude-code"]);
    expect(prompt()).toEqual([{ type: "command", command: "memory hook prompt", timeout: 5 }]);
  });

  it("--print shows the resulting settings and writes nothing", async () => {
    const result = await ws.run(["hooks", "install", "claude-code", "--print"]);
    expect(result.code).toBe(0);
    const printed = JSON.parse(result.stdout) as Settings;
    expect(Object.keys(printed.hooks ?? {})).toEqual(["SessionStart", "UserPromptSubmit", "Stop"]);
    expect(() => readFileSync(settingsFile)).toThrow(/ENOENT/);
  });

  it("--user writes ~/.claude/settings.json, not the project's", async () => {
    const project = ws.file("project");
    mkdirSync(project);
    const home = ws.file("home");
    const result = await runMemory(["hooks", "install", "claude-code", "--user"], {
      cwd: project,
      env: { HOME: home },
    });
    expect(result.code, result.stderr).toBe(0);
    const user = JSON.parse(
      readFileSync(path.join(home, ".claude/settings.json"), "utf8"),
    ) as Settings;
    expect(user.hooks?.UserPromptSubmit?.[0]?.hooks[0]?.command).toBe("memory hook prompt");
    expect(() => readFileSync(path.join(project, ".claude/settings.json"))).toThrow(/ENOENT/);
  });

  it("refuses a settings file that is not JSON and leaves it untouched", async () => {
    mkdirSync(path.dirname(settingsFile), { recursive: true });
    writeFileSync(settingsFile, "{ broken");
    const result = await ws.run(["hooks", "install", "claude-code"]);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain("is not valid JSON");
    expect(readFileSync(settingsFile, "utf8")).toBe("{ broken");
  });
});

describe("memory hooks install codex", () => {
  let ws: Workspace;
  beforeEach(() => {
    ws = new Workspace();
  });
  afterEach(() => ws.remove());

  it("puts the notify program first in ~/.codex/config.toml, once, and removes it again", async () => {
    const config = ws.file(".codex/config.toml");
    mkdirSync(path.dirname(config), { recursive: true });
    const original =
      'model = "o4-mini"\n\n[mcp_servers.memory]\ncommand = "memory"\nargs = ["mcp"]\n';
    writeFileSync(config, original);

    expect((await ws.run(["hooks", "install", "codex", "--user"])).code).toBe(0);
    await ws.run(["hooks", "install", "codex", "--user"]);
    const installed = readFileSync(config, "utf8");
    expect(installed).toBe(`notify = ["memory","hook","codex-notify"]\n${original}`);

    await ws.run(["hooks", "install", "codex", "--user", "--remove"]);
    expect(readFileSync(config, "utf8")).toBe(original);
  });

  it("does not replace someone else's notify program (Codex runs only one)", async () => {
    const config = ws.file(".codex/config.toml");
    mkdirSync(path.dirname(config), { recursive: true });
    writeFileSync(config, 'notify = ["notify-send", "Codex"]\n');
    const result = await ws.run(["hooks", "install", "codex", "--user"]);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain("already has a notify program");
    expect(readFileSync(config, "utf8")).toBe('notify = ["notify-send", "Codex"]\n');
  });
});
