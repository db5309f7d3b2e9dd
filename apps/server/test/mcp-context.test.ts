import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { loadConfig } from "@memory/core";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { describe, expect, it } from "vitest";
import { mainEntry, requireServerBuilt, requireSqliteBuilt } from "./backends.js";
import { startTestServer, TOKEN_A, TOKEN_ALL } from "./helpers.js";
import { connect, httpTransport, type Structured, stdioTransport, textOf } from "./mcp-clients.js";

// memory_context runs POST /v1/context's operation: memory.toml's auto_recall* are its defaults
// too, the call's own fields win, and its structured result has the HTTP response's fields.
const CONFIGURED = "auto_recall_limit = 1\nauto_recall_min_score = 0";
const FACTS = [
  ["editor", "The user edits code in Neovim"],
  ["editor-theme", "The user's editor theme is dark"],
] as const;

async function storeFacts(client: Client, namespace?: string): Promise<void> {
  for (const [key, content] of FACTS) {
    const stored = await client.callTool({
      name: "memory_store",
      arguments: { key, content, ...(namespace === undefined ? {} : { namespace }) },
    });
    expect(stored.isError ?? false).toBe(false);
  }
}

async function context(client: Client, args: Record<string, unknown>): Promise<Structured> {
  const result = await client.callTool({ name: "memory_context", arguments: args });
  expect(result.isError ?? false, textOf(result)).toBe(false);
  const structured = result.structuredContent as Structured;
  // The text part is the block itself (or a sentence saying nothing was found), then the
  // recallId for memory_feedback when the context recorded what it showed (docs/usage.md).
  const feedbackNote =
    structured.recallId === undefined
      ? ""
      : `\n(recallId ${structured.recallId}: after answering, memory_feedback with it and the keys you used.)`;
  expect(textOf(result)).toBe(
    structured.context === "" ? "No relevant memories." : `${structured.context}${feedbackNote}`,
  );
  return structured;
}

const keysOf = (entries: { key: string }[]) => entries.map((entry) => entry.key);

describe("MCP memory_context over streamable HTTP", () => {
  it("uses the server's auto_recall* defaults and answers what POST /v1/context answers", async () => {
    const server = await startTestServer({
      config: loadConfig({ env: {}, text: `[memory]\n${CONFIGURED}\n` }).config,
    });
    const client = await connect(httpTransport(server.url, TOKEN_ALL));
    await storeFacts(client);

    const configured = await context(client, { message: "editor" });
    expect(configured.entries).toHaveLength(1);
    const http = await server.call("POST", "/v1/context", { body: { message: "editor" } });
    expect(http.status).toBe(200);
    expect(configured.context).toBe(http.body.context);
    expect(configured.context).toContain("[Memory context]");
    expect(keysOf(configured.entries)).toEqual(keysOf(http.body.entries));
    expect(configured.truncated).toBe(http.body.truncated);

    // The call's own limit and maxChars win over the configured ones, as over HTTP.
    const wider = await context(client, { message: "editor", limit: 5 });
    expect(keysOf(wider.entries).sort()).toEqual(["editor", "editor-theme"]);
    const cut = await context(client, { message: "editor", limit: 5, maxChars: 60 });
    const httpCut = await server.call("POST", "/v1/context", {
      body: { message: "editor", limit: 5, maxChars: 60 },
    });
    expect(cut.truncated).toBe(true);
    expect(cut.context).toBe(httpCut.body.context);
    expect(cut.context.length).toBeLessThanOrEqual(60);
  });

  it("keeps a namespace-scoped token to its namespaces", async () => {
    const server = await startTestServer();
    await storeFacts(await connect(httpTransport(server.url, TOKEN_ALL)), "b");
    const client = await connect(httpTransport(server.url, TOKEN_A));
    const refused = await client.callTool({
      name: "memory_context",
      arguments: { message: "editor", namespace: "b", minScore: 0 },
    });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/^FORBIDDEN: .*namespace "b"/);
    // Without a namespace the token's own ("a") is used: b's facts never show.
    const own = await context(client, { message: "editor", minScore: 0 });
    expect(own.entries).toEqual([]);
    expect(own.context).toBe("");
  });

  it("refuses bad input with a message naming the field", async () => {
    const server = await startTestServer();
    const client = await connect(httpTransport(server.url, TOKEN_ALL));
    const tooSmall = await client.callTool({
      name: "memory_context",
      arguments: { message: "editor", maxChars: 10 },
    });
    expect(tooSmall.isError).toBe(true);
    expect(textOf(tooSmall)).toMatch(/maxChars/);
  });
});

describe("MCP memory_context over stdio (`node dist/main.mjs --mcp`)", () => {
  it("uses the auto_recall* defaults of the memory.toml it runs with", async () => {
    requireServerBuilt();
    requireSqliteBuilt();
    const dir = mkdtempSync(path.join(tmpdir(), "memory-mcp-context-"));
    try {
      const config = path.join(dir, "memory.toml");
      writeFileSync(
        config,
        `[memory]\nbackend = "sqlite"\ndata_dir = "."\nembedding_provider = "noop"\n${CONFIGURED}\n`,
      );
      const client = await connect(stdioTransport([mainEntry, "--mcp", "--config", config]));
      await storeFacts(client);
      const configured = await context(client, { message: "editor" });
      expect(configured.entries).toHaveLength(1);
      expect(configured.context).toMatch(/^\[Memory context\]\n- /);
      const wider = await context(client, { message: "editor", limit: 5 });
      expect(keysOf(wider.entries).sort()).toEqual(["editor", "editor-theme"]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
