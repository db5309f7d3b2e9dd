import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { describe, expect, it } from "vitest";
import { mainEntry, requireServerBuilt, requireSqliteBuilt } from "./backends.js";
import { startTestServer, TOKEN_A, TOKEN_ALL } from "./helpers.js";
import {
  connect,
  httpTransport,
  inMemoryStdio,
  resourceText,
  type Structured,
  scriptedChat,
  stdioTransport,
  textOf,
} from "./mcp-clients.js";

const TOOLS = [
  "memory_consolidate",
  "memory_context",
  "memory_forget",
  "memory_get",
  "memory_list",
  "memory_recall",
  "memory_store",
];

/**
 * Per tool, arguments that must be refused: a misspelt field (refused like an unknown HTTP
 * field, never dropped), a wrong type or out-of-bounds value (the HTTP schemas' bounds), a
 * missing required field, and values only the library refuses.
 */
const INVALID_ARGUMENTS: Record<string, Record<string, unknown>[]> = {
  memory_store: [
    { content: "The user likes tea", namspace: "other" },
    { content: 42 },
    { key: "bad", content: "x", category: "no/slash" },
    { key: "bad", content: "x", sessionId: "s".repeat(257) },
    {},
  ],
  memory_recall: [
    { query: "tea", namspace: "other" },
    { query: "tea", limit: 1001 },
    { query: "tea", limit: "5" },
    { query: "q".repeat(10_001) },
    {},
  ],
  memory_context: [{ message: "tea", namspace: "other" }, { message: "tea", maxChars: 10 }, {}],
  memory_get: [
    { key: "user_editor", namspace: "other" },
    {},
    { key: "user_editor", path: "MEMORY.md" },
    { key: "user_editor", offset: -1 },
    { key: "user_editor", lines: 5 },
  ],
  memory_forget: [{ key: "user_editor", namspace: "other" }, {}, { key: 7 }],
  memory_list: [{ namspace: "other" }, { limit: 10_001 }, { categories: "core" }],
  memory_consolidate: [
    { message: "We always deploy on Fridays", namspace: "other" },
    {},
    { message: "x".repeat(100_001) },
  ],
  memory_remember: [{ message: "I prefer dark themes", namspace: "other" }, {}],
};

/**
 * The same conversation over any transport: lists every tool, calls each with valid arguments
 * (structured results, contents once) and with each kind of invalid argument.
 */
async function exerciseTools(client: Client, options: { remember: boolean }): Promise<void> {
  const { tools } = await client.listTools();
  const expected = options.remember ? [...TOOLS, "memory_remember"].sort() : TOOLS;
  expect(tools.map((tool) => tool.name).sort()).toEqual(expected);
  for (const tool of tools) {
    expect(tool.description!.length).toBeGreaterThan(80);
    expect(tool.outputSchema).toBeDefined();
    // Strict: the listed schema tells clients that unknown arguments are refused.
    expect(tool.inputSchema.additionalProperties, tool.name).toBe(false);
  }

  const stored = await client.callTool({
    name: "memory_store",
    arguments: { key: "user_editor", content: "The user edits code in Neovim", category: "core" },
  });
  expect(stored.isError).toBeFalsy();
  expect((stored.structuredContent as Structured).entry).toMatchObject({
    key: "user_editor",
    category: "core",
    contentChars: "The user edits code in Neovim".length,
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
  // The content travels once: in the text, not again in the structured part.
  expect(results[0]).not.toHaveProperty("content");
  expect(textOf(recalled).split("The user edits code in Neovim")).toHaveLength(2);
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

  // An empty message (the start of a conversation) gets the top core memories.
  const context = await client.callTool({ name: "memory_context", arguments: { message: "" } });
  expect(context.isError).toBeFalsy();
  expect(textOf(context)).toMatch(/^\[Memory context\]/);
  expect(textOf(context)).toContain("The user edits code in Neovim");
  expect((context.structuredContent as Structured).entries).toEqual([
    expect.objectContaining({ key: "user_editor" }),
  ]);
  const unrelated = await client.callTool({
    name: "memory_context",
    arguments: { message: "zzqx wubble", minScore: 0.9 },
  });
  expect(textOf(unrelated)).toBe("No relevant memories.");

  const got = await client.callTool({ name: "memory_get", arguments: { key: "user_editor" } });
  expect(got.structuredContent).toMatchObject({ found: true, entry: { key: "user_editor" } });
  expect(textOf(got)).toBe("[core] user_editor: The user edits code in Neovim");
  const missing = await client.callTool({ name: "memory_get", arguments: { key: "nope" } });
  expect(missing.structuredContent).toEqual({ found: false });

  const listed = await client.callTool({
    name: "memory_list",
    arguments: { categories: ["daily"] },
  });
  expect(
    ((listed.structuredContent as Structured).entries as Structured[]).map((entry) => entry.key),
  ).toEqual(["today"]);

  const consolidated = await client.callTool({
    name: "memory_consolidate",
    arguments: { message: "We always deploy on Fridays", reply: "Noted." },
  });
  expect(consolidated.isError).toBeFalsy();
  expect((consolidated.structuredContent as Structured).promoted).toMatchObject({
    category: "core",
  });

  if (options.remember) {
    const remembered = await client.callTool({
      name: "memory_remember",
      arguments: { message: "I prefer dark themes", sessionId: "s1" },
    });
    expect(remembered.isError).toBeFalsy();
    expect(textOf(remembered)).toContain("user_theme (preference): The user prefers dark themes");
    expect((remembered.structuredContent as Structured).facts).toEqual([
      expect.objectContaining({ key: "user_theme", kind: "preference", category: "core" }),
    ]);
  }

  const forgot = await client.callTool({ name: "memory_forget", arguments: { key: "today" } });
  expect(forgot.structuredContent).toEqual({ deleted: true });
  const again = await client.callTool({ name: "memory_forget", arguments: { key: "today" } });
  expect(again.structuredContent).toEqual({ deleted: false });

  const count = async () =>
    (
      (await client.callTool({ name: "memory_list", arguments: { limit: 1000 } }))
        .structuredContent as Structured
    ).entries.length as number;
  const before = await count();
  for (const tool of tools) {
    for (const invalid of INVALID_ARGUMENTS[tool.name]!) {
      const label = `${tool.name} ${JSON.stringify(invalid).slice(0, 80)}`;
      const refused = await client.callTool({ name: tool.name, arguments: invalid });
      expect(refused.isError, label).toBe(true);
      expect(textOf(refused), label).toMatch(
        /^(INVALID_INPUT: |MCP error -32602: Input validation error)/,
      );
      if ("namspace" in invalid) expect(textOf(refused), label).toMatch(/namspace/);
    }
  }
  expect(await count()).toBe(before);
  expect(
    (
      (await client.callTool({ name: "memory_list", arguments: { namespace: "other" } }))
        .structuredContent as Structured
    ).entries,
  ).toEqual([]);

  const { resources } = await client.listResources();
  expect(resources.map((resource) => resource.uri).sort()).toEqual(
    expect.arrayContaining([
      "memory://namespaces/default/core",
      "memory://namespaces/default/summary",
    ]),
  );
  const core = await client.readResource({ uri: "memory://namespaces/default/core" });
  expect(resourceText(core)).toContain("user_editor: The user edits code in Neovim");
  const summary = await client.readResource({ uri: "memory://namespaces/default/summary" });
  expect(JSON.parse(resourceText(summary))).toMatchObject({
    namespace: "default",
    categories: { core: options.remember ? 3 : 2 },
  });
}

describe("MCP over streamable HTTP (/mcp)", () => {
  it("lists and calls every tool through the official SDK client", async () => {
    const server = await startTestServer({ chatModel: scriptedChat });
    const client = await connect(httpTransport(server.url, TOKEN_ALL));
    await exerciseTools(client, { remember: true });
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

  it("scopes tools and resources to the token's namespaces", async () => {
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
    expect(textOf(forbidden)).toMatch(/^FORBIDDEN: /);
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
    const context = await client.callTool({
      name: "memory_context",
      arguments: { message: "", namespace: "b" },
    });
    expect(textOf(context)).toMatch(/^FORBIDDEN: /);

    const { resources } = await client.listResources();
    expect(resources.map((resource) => resource.uri).sort()).toEqual([
      "memory://namespaces/a/core",
      "memory://namespaces/a/summary",
    ]);
    await expect(client.readResource({ uri: "memory://namespaces/b/core" })).rejects.toThrow(
      /FORBIDDEN/,
    );
    await expect(client.readResource({ uri: "memory://namespaces/b/summary" })).rejects.toThrow(
      /FORBIDDEN/,
    );
    const own = await client.readResource({ uri: "memory://namespaces/a/core" });
    expect(resourceText(own)).toContain("mine: a's note");
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
  it("lists and calls every tool (in-memory backend, scripted chat model)", async () => {
    const client = await connect(inMemoryStdio({ scriptedChat: true }));
    await exerciseTools(client, { remember: true });
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
      await exerciseTools(first, { remember: false });
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
