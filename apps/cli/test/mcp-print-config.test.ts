import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BIN, cleanEnv, json, type RunResult, Workspace } from "./helpers/run-memory.js";

interface JsonConfig {
  client: string;
  transport: "stdio" | "http";
  file: string;
  config: { mcpServers: { memory: Record<string, unknown> } };
}

interface CommandConfig {
  client: string;
  transport: "stdio" | "http";
  argv: string[];
  command: string;
}

const SECRET_IN_FILE = "file-secret-0123456789abcdef";
const SECRET_IN_ENV = "env-secret-0123456789abcdef";

/** Sends JSON-RPC lines to an MCP server over stdio and collects the responses by id. */
async function talkStdio(
  command: string,
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
): Promise<{ tools: string[]; serverName: string; drink: string }> {
  const child = spawn(command, args, { cwd, env, stdio: ["pipe", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  const responses = new Map<number, Record<string, unknown>>();
  let buffer = "";
  const waiters = new Map<number, (message: Record<string, unknown>) => void>();
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    buffer += chunk;
    let newline = buffer.indexOf("\n");
    while (newline !== -1) {
      const line = buffer.slice(0, newline).trim();
      buffer = buffer.slice(newline + 1);
      newline = buffer.indexOf("\n");
      if (line === "") continue;
      const message = JSON.parse(line) as Record<string, unknown>;
      if (typeof message.id === "number") {
        responses.set(message.id, message);
        waiters.get(message.id)?.(message);
      }
    }
  });
  const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
  const request = (id: number, method: string, params: Record<string, unknown> = {}) => {
    const answer = new Promise<Record<string, unknown>>((resolve, reject) => {
      const known = responses.get(id);
      if (known) resolve(known);
      waiters.set(id, resolve);
      exited.then((code) =>
        reject(new Error(`server exited (${code}) before answering ${method}: ${stderr}`)),
      );
    });
    child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id, method, params })}\n`);
    return answer;
  };
  try {
    const init = await request(1, "initialize", {
      protocolVersion: "2025-03-26",
      capabilities: {},
      clientInfo: { name: "print-config-test", version: "1.0.0" },
    });
    child.stdin.write(
      `${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n`,
    );
    const list = await request(2, "tools/list");
    const tools = ((list.result as { tools: { name: string }[] }).tools ?? []).map(
      (tool) => tool.name,
    );
    const serverName = String((init.result as { serverInfo?: { name?: string } }).serverInfo?.name);
    // The store of the printed --config, not one in the working directory.
    const get = await request(3, "tools/call", { name: "memory_get", arguments: { key: "drink" } });
    return { tools, serverName, drink: JSON.stringify(get.result) };
  } finally {
    child.stdin.end();
    const code = await Promise.race([
      exited,
      new Promise<"timeout">((resolve) => setTimeout(() => resolve("timeout"), 15_000)),
    ]);
    if (code === "timeout") child.kill("SIGTERM");
  }
}

function expectJsonConfig(result: RunResult): JsonConfig {
  expect(result.code, result.stderr).toBe(0);
  return json<JsonConfig>(result);
}

describe("memory mcp --print-config", () => {
  let ws: Workspace;
  let elsewhere: string;
  beforeAll(async () => {
    ws = new Workspace(
      `\n[server]\nport = 18871\n\n[[server.tokens]]\ntoken = "${SECRET_IN_FILE}"\nnamespaces = ["team"]\n\n[[server.tokens]]\ntoken_env = "MEMORY_TEST_MCP_TOKEN"\nnamespaces = ["*"]\n`,
    );
    elsewhere = mkdtempSync(path.join(tmpdir(), "memory-cli-elsewhere-"));
    expect((await ws.run(["store", "The user likes tea", "--key", "drink"])).code).toBe(0);
  });
  afterAll(() => {
    ws.remove();
    rmSync(elsewhere, { recursive: true, force: true });
  });

  it("prints claude_desktop_config.json, cursor and generic JSON with absolute stdio paths", async () => {
    for (const client of ["claude-desktop", "cursor", "generic"]) {
      // The human output (stdout) is itself the JSON to paste.
      const human = await ws.run(["mcp", "--print-config", client]);
      expect(human.code, human.stderr).toBe(0);
      const document = JSON.parse(human.stdout) as JsonConfig["config"];
      const entry = document.mcpServers.memory;
      expect(entry.command).toBe(process.execPath);
      expect(entry.args).toEqual([BIN, "--config", ws.file("memory.toml"), "mcp"]);
      for (const arg of [entry.command, (entry.args as string[])[0]]) {
        expect(path.isAbsolute(String(arg))).toBe(true);
      }
      const body = expectJsonConfig(await ws.run(["--json", "mcp", "--print-config", client]));
      expect(body).toMatchObject({ client, transport: "stdio", config: document });
    }
  });

  it("prints the claude mcp add command line for claude-code", async () => {
    const result = await ws.run(["--json", "mcp", "--print-config", "claude-code"]);
    expect(result.code, result.stderr).toBe(0);
    const body = json<CommandConfig>(result);
    expect(body.argv).toEqual([
      "claude",
      "mcp",
      "add",
      "memory",
      "--",
      process.execPath,
      BIN,
      "--config",
      ws.file("memory.toml"),
      "mcp",
    ]);
    const human = await ws.run(["mcp", "--print-config", "claude-code"]);
    expect(human.stdout.trim()).toBe(body.command);
    expect(body.command.startsWith("claude mcp add memory -- ")).toBe(true);
  });

  it("the printed stdio command starts a working MCP server from any directory", async () => {
    const body = expectJsonConfig(await ws.run(["--json", "mcp", "--print-config", "generic"]));
    const { command, args } = body.config.mcpServers.memory as { command: string; args: string[] };
    // Another working directory, and no MEMORY_* variables: only the printed command counts.
    const { tools, drink } = await talkStdio(command, args, elsewhere, cleanEnv(elsewhere));
    expect(drink).toContain("The user likes tea");
    expect(tools).toEqual(
      expect.arrayContaining(["memory_store", "memory_recall", "memory_get", "memory_forget"]),
    );
  });

  it("over HTTP, references a token held in an environment variable instead of printing it", async () => {
    const env = { MEMORY_TEST_MCP_TOKEN: SECRET_IN_ENV };
    const code = await ws.run(["--json", "mcp", "--print-config", "claude-code", "--http"], {
      env,
    });
    const argv = json<CommandConfig>(code);
    // The all-namespaces token is preferred; its value stays out of the output.
    expect(argv.argv).toEqual([
      "claude",
      "mcp",
      "add",
      "--transport",
      "http",
      "memory",
      "http://127.0.0.1:18871/mcp",
      "--header",
      `Authorization: Bearer \${MEMORY_TEST_MCP_TOKEN}`,
    ]);
    expect(argv.command).toContain(`--header "Authorization: Bearer \${MEMORY_TEST_MCP_TOKEN}"`);
    const cursor = expectJsonConfig(
      await ws.run(["--json", "mcp", "--print-config", "cursor", "--http"], { env }),
    );
    expect(cursor.config.mcpServers.memory).toEqual({
      url: "http://127.0.0.1:18871/mcp",
      headers: { Authorization: `Bearer \${env:MEMORY_TEST_MCP_TOKEN}` },
    });
    const desktop = await ws.run(["mcp", "--print-config", "claude-desktop", "--http"], { env });
    const entry = (JSON.parse(desktop.stdout) as JsonConfig["config"]).mcpServers.memory;
    expect(entry).toMatchObject({ command: "npx", env: { AUTH_HEADER: "Bearer <token>" } });
    expect(desktop.stderr).toContain("replace <token> with the value of MEMORY_TEST_MCP_TOKEN");
    for (const result of [code, desktop]) {
      expect(result.stdout + result.stderr).not.toContain(SECRET_IN_ENV);
      expect(result.stdout + result.stderr).not.toContain(SECRET_IN_FILE);
    }
  });

  it("prints a secret only when passed with --token or asked for with --show-token", async () => {
    const given = expectJsonConfig(
      await ws.run([
        "--json",
        "mcp",
        "--print-config",
        "generic",
        "--http",
        "http://10.0.0.5:9000",
        "--token",
        "typed-by-the-user-0123",
      ]),
    );
    expect(given.config.mcpServers.memory).toEqual({
      type: "http",
      url: "http://10.0.0.5:9000/mcp",
      headers: { Authorization: "Bearer typed-by-the-user-0123" },
    });
    const shown = expectJsonConfig(
      await ws.run(["--json", "mcp", "--print-config", "generic", "--http", "--show-token"], {
        env: { MEMORY_TEST_MCP_TOKEN: SECRET_IN_ENV },
      }),
    );
    expect(shown.config.mcpServers.memory).toMatchObject({
      headers: { Authorization: `Bearer ${SECRET_IN_ENV}` },
    });
  });

  it("puts a placeholder for a token written in memory.toml", async () => {
    ws.writeConfig(
      "literal.toml",
      `[memory]\nembedding_provider = "noop"\n[sqlite]\npath = "brain.db"\n[server]\n[[server.tokens]]\ntoken = "${SECRET_IN_FILE}"\nnamespaces = ["*"]\n`,
    );
    const result = await ws.run([
      "--config",
      "literal.toml",
      "mcp",
      "--print-config",
      "cursor",
      "--http",
    ]);
    expect(result.code, result.stderr).toBe(0);
    const entry = (JSON.parse(result.stdout) as JsonConfig["config"]).mcpServers.memory;
    expect(entry).toEqual({
      url: "http://127.0.0.1:8787/mcp",
      headers: { Authorization: "Bearer <token>" },
    });
    expect(result.stderr).toContain(`[server].tokens[0] in ${ws.file("literal.toml")}`);
    expect(result.stderr).toContain("--show-token");
    expect(result.stdout + result.stderr).not.toContain(SECRET_IN_FILE);
  });

  it("refuses an unknown client, listing the valid ones (usage error)", async () => {
    const result = await ws.run(["mcp", "--print-config", "vscode"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('unknown MCP client "vscode"');
    expect(result.stderr).toContain("claude-desktop, claude-code, cursor, generic");
  });

  it("refuses --http without --print-config", async () => {
    const result = await ws.run(["mcp", "--http"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("--print-config");
  });
});
