import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
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
import { exerciseTools } from "./mcp-exercise.js";

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
