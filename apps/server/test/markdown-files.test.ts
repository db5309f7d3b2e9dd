import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createMarkdownMemory } from "@memory/markdown";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterEach, describe, expect, it } from "vitest";
import { startTestServer, TOKEN_A, TOKEN_ALL } from "./helpers.js";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function markdownServer() {
  const root = mkdtempSync(path.join(tmpdir(), "memory-server-md-"));
  dirs.push(root);
  writeFileSync(
    path.join(root, "MEMORY.md"),
    "# Notes\n\nThe user keeps two kayaks in the garage.\nThey paddle on Sundays.\n",
  );
  const memory = createMarkdownMemory({ root, index: false, logger: () => {} });
  return startTestServer({ memory });
}

describe("memory files (Markdown backend)", () => {
  it("recall gives path and lines; GET /v1/files reads them, confined to the tree and the token", async () => {
    const server = await markdownServer();
    const recalled = await server.call("POST", "/v1/recall", {
      token: TOKEN_ALL,
      body: { query: "kayaks garage" },
    });
    expect(recalled.status).toBe(200);
    expect(recalled.body.results[0]).toMatchObject({
      key: "MEMORY.md#notes",
      source: { path: "MEMORY.md", startLine: 3, endLine: 4 },
    });
    const file = await server.call("GET", "/v1/files?path=MEMORY.md&from=3&lines=1", {
      token: TOKEN_ALL,
    });
    expect(file.status).toBe(200);
    expect(file.body).toEqual({
      path: "MEMORY.md",
      namespace: "default",
      from: 3,
      to: 3,
      totalLines: 4,
      text: "The user keeps two kayaks in the garage.",
    });
    const outside = await server.call("GET", "/v1/files?path=..%2Fetc%2Fpasswd.md", {
      token: TOKEN_ALL,
    });
    expect(outside.status).toBe(400);
    expect(outside.body.error.code).toBe("INVALID_INPUT");
    const missing = await server.call("GET", "/v1/files?path=memory%2Fnone.md", {
      token: TOKEN_ALL,
    });
    expect(missing.status).toBe(404);
    const scoped = await server.call("GET", "/v1/files?path=MEMORY.md", { token: TOKEN_A });
    expect(scoped.status).toBe(403);
  });

  it("authorises a file reached through a symbolic link on the namespace of the file it leads to", async () => {
    const root = mkdtempSync(path.join(tmpdir(), "memory-server-md-"));
    dirs.push(root);
    const memory = createMarkdownMemory({ root, index: false, logger: () => {} });
    await memory.store({ key: "secret", content: "tenant b's private plan", namespace: "b" });
    await memory.store({ key: "own", content: "tenant a's note", namespace: "a" });
    mkdirSync(path.join(root, "namespaces", "a", "memory"), { recursive: true });
    symlinkSync(
      path.join(root, "namespaces", "b", "MEMORY.md"),
      path.join(root, "namespaces", "a", "memory", "b.md"),
    );
    const server = await startTestServer({ memory });
    const linkPath = "namespaces%2Fa%2Fmemory%2Fb.md";
    const own = await server.call("GET", "/v1/files?path=namespaces%2Fa%2FMEMORY.md", {
      token: TOKEN_A,
    });
    expect(own.status).toBe(200);
    const scoped = await server.call("GET", `/v1/files?path=${linkPath}`, { token: TOKEN_A });
    expect(scoped.status).toBe(403);
    expect(scoped.body.error.code).toBe("FORBIDDEN");
    expect(JSON.stringify(scoped.body)).not.toContain("private plan");
    const admin = await server.call("GET", `/v1/files?path=${linkPath}`, { token: TOKEN_ALL });
    expect(admin.status).toBe(200);
    expect(admin.body.namespace).toBe("b");

    const client = new Client({ name: "memory-test", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${TOKEN_A}` } },
      }),
    );
    try {
      const got = await client.callTool({
        name: "memory_get",
        arguments: { path: "namespaces/a/memory/b.md" },
      });
      expect(got.isError).toBe(true);
      const text = (got.content as { text: string }[])[0]!.text;
      expect(text).toMatch(/^FORBIDDEN/);
      expect(text).not.toContain("private plan");
    } finally {
      await client.close();
    }
  });

  it("answers UNSUPPORTED on a backend without files", async () => {
    const server = await startTestServer();
    const response = await server.call("GET", "/v1/files?path=MEMORY.md", { token: TOKEN_ALL });
    expect(response.status).toBe(501);
    expect(response.body.error.code).toBe("UNSUPPORTED");
  });

  it("memory_get reads a file segment over MCP", async () => {
    const server = await markdownServer();
    const client = new Client({ name: "memory-test", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${TOKEN_ALL}` } },
      }),
    );
    try {
      const recalled = await client.callTool({
        name: "memory_recall",
        arguments: { query: "kayaks" },
      });
      expect((recalled.content as { text: string }[])[0]!.text).toContain("(MEMORY.md:3-4)");
      const got = await client.callTool({
        name: "memory_get",
        arguments: { path: "MEMORY.md", from: 4, lines: 1 },
      });
      expect(got.isError).toBeFalsy();
      // The lines travel once, in the text part; the structured part says how long they are.
      expect((got.content as { text: string }[])[0]!.text).toBe("They paddle on Sundays.");
      expect(got.structuredContent).toMatchObject({ file: { from: 4, textChars: 23 } });
      const outside = await client.callTool({ name: "memory_get", arguments: { path: "../x.md" } });
      expect(outside.isError).toBe(true);
      expect((outside.content as { text: string }[])[0]!.text).toMatch(/^INVALID_INPUT/);
    } finally {
      await client.close();
    }
  });
});
