import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { afterEach, describe, expect, it } from "vitest";
import { mainEntry, requireServerBuilt, requireSqliteBuilt } from "./backends.js";
import { startTestServer, TOKEN_A, TOKEN_ALL } from "./helpers.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "..");

const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

async function connect(transport: Transport): Promise<Client> {
  const client = new Client({ name: "memory-test", version: "1.0.0" });
  await client.connect(transport);
  clients.push(client);
  return client;
}

function httpTransport(url: string, token?: string): StreamableHTTPClientTransport {
  return new StreamableHTTPClientTransport(new URL(`${url}/mcp`), {
    requestInit: { headers: token ? { authorization: `Bearer ${token}` } : {} },
  });
}

function stdioTransport(args: string[]): StdioClientTransport {
  return new StdioClientTransport({
    command: process.execPath,
    args,
    cwd: root,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "" },
    stderr: "pipe",
  });
}

// biome-ignore lint/suspicious/noExplicitAny: JSON from the wire, checked field by field
type Structured = Record<string, any>;

/** The same conversation over any transport: every tool, structured results, tool errors. */
async function exerciseTools(client: Client): Promise<void> {
  const { tools } = await client.listTools();
  // memory_remember is offered only with a chat model (agent-turn-routes.test.ts).
  expect(tools.map((tool) => tool.name).sort()).toEqual([
    "memory_consolidate",
    "memory_forget",
    "memory_get",
    "memory_list",
    "memory_recall",
    "memory_store",
  ]);
  for (const tool of tools) {
    expect(tool.description!.length).toBeGreaterThan(80);
    expect(tool.outputSchema).toBeDefined();
  }

  const stored = await client.callTool({
    name: "memory_store",
    arguments: { key: "user_editor", content: "The user edits code in Neovim", category: "core" },
  });
  expect(stored.isError).toBeFalsy();
  expect((stored.structuredContent as Structured).entry).toMatchObject({
    key: "user_editor",
    category: "core",
  });
  await client.callTool({
    name: "memory_store",
    arguments: {
      key: "today",
      content: "Worked on the flaky login test",
      category: "daily",
      sessionId: "s1",
    },
  });

  const recalled = await client.callTool({
    name: "memory_recall",
    arguments: { query: "Neovim editor" },
  });
  const results = (recalled.structuredContent as Structured).results as Structured[];
  expect(results[0]).toMatchObject({ key: "user_editor" });
  expect(typeof results[0]!.score).toBe("number");
  // The HTTP API's limit bounds: 0 returns nothing, more than 50 is allowed.
  for (const [limit, count] of [
    [0, 0],
    [500, 1],
  ] as const) {
    const bounded = await client.callTool({
      name: "memory_recall",
      arguments: { query: "Neovim editor", limit },
    });
    expect(bounded.isError, `limit ${limit}`).toBeFalsy();
    expect(((bounded.structuredContent as Structured).results as unknown[]).length).toBe(count);
  }
  expect((recalled.content as { text: string }[])[0]!.text).toContain("user_editor");

  const got = await client.callTool({ name: "memory_get", arguments: { key: "user_editor" } });
  expect(got.structuredContent).toMatchObject({
    found: true,
    entry: { content: "The user edits code in Neovim" },
  });
  const missing = await client.callTool({ name: "memory_get", arguments: { key: "nope" } });
  expect(missing.structuredContent).toEqual({ found: false });

  const listed = await client.callTool({
    name: "memory_list",
    arguments: { categories: ["daily"] },
  });
  expect(
    ((listed.structuredContent as Structured).entries as Structured[]).map((entry) => entry.key),
  ).toEqual(["today"]);

  const forgot = await client.callTool({ name: "memory_forget", arguments: { key: "today" } });
  expect(forgot.structuredContent).toEqual({ deleted: true });
  const again = await client.callTool({ name: "memory_forget", arguments: { key: "today" } });
  expect(again.structuredContent).toEqual({ deleted: false });

  const invalid = await client.callTool({
    name: "memory_store",
    arguments: { key: "bad", content: "x", category: "no/slash" },
  });
  expect(invalid.isError).toBe(true);
  expect((invalid.content as { text: string }[])[0]!.text).toMatch(/^INVALID_INPUT: /);
}

describe("MCP over streamable HTTP (/mcp)", () => {
  it("exposes the memory tools through the official SDK client", async () => {
    const server = await startTestServer();
    const client = await connect(httpTransport(server.url, TOKEN_ALL));
    await exerciseTools(client);
    // The HTTP API sees what the tools wrote.
    expect((await server.call("GET", "/v1/memories/user_editor")).status).toBe(200);
  });

  it("sits behind the same auth", async () => {
    const server = await startTestServer();
    await expect(connect(httpTransport(server.url))).rejects.toThrow(/401|Unauthorized|bearer/i);
    const response = await fetch(`${server.url}/mcp`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(response.status).toBe(401);
    expect(((await response.json()) as Structured).error.code).toBe("UNAUTHORIZED");
  });

  it("scopes tools to the token's namespaces", async () => {
    const server = await startTestServer();
    await server.call("POST", "/v1/memories", {
      body: { key: "b-secret", content: "only for b", namespace: "b" },
    });
    const client = await connect(httpTransport(server.url, TOKEN_A));
    const forbidden = await client.callTool({
      name: "memory_get",
      arguments: { key: "b-secret", namespace: "b" },
    });
    expect(forbidden.isError).toBe(true);
    expect((forbidden.content as { text: string }[])[0]!.text).toMatch(/^FORBIDDEN: /);
    const stored = await client.callTool({
      name: "memory_store",
      arguments: { key: "mine", content: "a's note" },
    });
    expect((stored.structuredContent as Structured).entry.namespace).toBe("a");
    const recalled = await client.callTool({
      name: "memory_recall",
      arguments: { query: "only for b" },
    });
    expect((recalled.structuredContent as Structured).results).toEqual([]);
  });

  it("answers 413 for an oversized MCP message", async () => {
    const server = await startTestServer({ maxBodyBytes: 2048 });
    const response = await fetch(`${server.url}/mcp`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${TOKEN_ALL}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/list",
        params: { pad: "x".repeat(4096) },
      }),
    });
    expect(response.status).toBe(413);
  });
});

describe("MCP over stdio (child process)", () => {
  it("exposes the memory tools (in-memory backend)", async () => {
    requireServerBuilt(); // the fixture imports dist/index.mjs
    const client = await connect(
      stdioTransport([path.join(here, "fixtures/mcp-stdio-in-memory.mjs")]),
    );
    await exerciseTools(client);
  });

  it("runs `node dist/main.mjs --mcp` on a SQLite store and keeps data across restarts", async () => {
    requireServerBuilt();
    requireSqliteBuilt();
    const dir = mkdtempSync(path.join(tmpdir(), "memory-mcp-"));
    try {
      const config = path.join(dir, "memory.toml");
      writeFileSync(
        config,
        '[memory]\nbackend = "sqlite"\ndata_dir = "."\nembedding_provider = "noop"\n',
      );
      const first = await connect(stdioTransport([mainEntry, "--mcp", "--config", config]));
      await exerciseTools(first);
      await first.close();
      const second = await connect(stdioTransport([mainEntry, "--mcp", "--config", config]));
      const got = await second.callTool({
        name: "memory_get",
        arguments: { key: "user_editor" },
      });
      expect(got.structuredContent).toMatchObject({ found: true });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
