import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { EmbeddingProvider, Memory } from "@memory/api";
import { contentKey, loadConfig } from "@memory/core";
import { ChatServer, createTestEmbedder } from "@memory/testkit";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { requireSqliteBuilt } from "./backends.js";
import { startTestServer, type TestServer, TOKEN_A, TOKEN_ALL } from "./helpers.js";

// biome-ignore lint/suspicious/noExplicitAny: JSON from the wire, checked field by field
type Json = Record<string, any>;

let chat: ChatServer;
beforeAll(async () => {
  chat = await ChatServer.start();
});
afterAll(async () => {
  await chat.close();
});

const servers: TestServer[] = [];
const stores: { memory: Memory; dir: string }[] = [];
const clients: Client[] = [];
afterEach(async () => {
  chat.reset();
  await Promise.all(clients.splice(0).map((client) => client.close()));
  // The servers first (they flush the memory they serve), then the stores they served.
  await Promise.all(servers.splice(0).map((server) => server.handle.close()));
  for (const { memory, dir } of stores.splice(0)) {
    await memory.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

/** A real SQLite store in a temporary directory. */
async function sqlite(
  embedder?: EmbeddingProvider,
  settings: { conflictMode?: "off" | "rules" } = {},
): Promise<Memory> {
  requireSqliteBuilt();
  const dir = mkdtempSync(path.join(tmpdir(), "memory-server-turns-"));
  const { createSqliteMemory } = (await import("@memory/sqlite")) as {
    createSqliteMemory(options: {
      path: string;
      embedder?: EmbeddingProvider;
      conflictMode?: "off" | "rules";
    }): Memory;
  };
  const memory = createSqliteMemory({
    path: path.join(dir, "brain.db"),
    ...(embedder ? { embedder } : {}),
    ...settings,
  });
  stores.push({ memory, dir });
  return memory;
}

function configWith(...lines: string[]) {
  return loadConfig({ env: {}, text: `[memory]\n${lines.join("\n")}\n` }).config;
}

/** The chat model comes from the configuration: the scripted OpenAI-compatible loopback server. */
function chatConfig(...extra: string[]) {
  return configWith(
    `chat_provider = "custom:${chat.baseURL}"`,
    'chat_model = "scripted-chat"',
    ...extra,
  );
}

async function serve(options: Parameters<typeof startTestServer>[0]): Promise<TestServer> {
  const server = await startTestServer(options);
  servers.push(server);
  return server;
}

const facts = (...list: unknown[]) => ({ content: JSON.stringify({ facts: list }) });

describe("POST /v1/consolidate (SQLite)", () => {
  it("logs the turn, promotes an important message and supersedes the core fact it contradicts", async () => {
    const memory = await sqlite(createTestEmbedder({ dimensions: 256 }));
    const server = await serve({ memory, config: configWith() });

    const first = await server.call("POST", "/v1/consolidate", {
      body: { message: "We always deploy on Fridays", reply: "Noted.", sessionId: "s1" },
    });
    expect(first.status).toBe(200);
    expect(first.body.daily).toMatchObject({
      category: "daily",
      namespace: "default",
      sessionId: "s1",
      content: "User: We always deploy on Fridays\nAssistant: Noted.",
    });
    expect(first.body.daily.key).toMatch(/^daily_\d{4}-\d{2}-\d{2}_[0-9a-f-]{36}$/);
    expect(first.body.promoted).toMatchObject({
      key: contentKey("We always deploy on Fridays"),
      category: "core",
      content: "We always deploy on Fridays",
    });
    expect(first.body.importance).toBe(0.8);
    expect(first.body.superseded).toEqual([]);
    // Entries go out without embeddings, as on the other routes.
    expect(first.body.daily).not.toHaveProperty("embedding");
    expect(first.body.promoted).not.toHaveProperty("embedding");

    const second = await server.call("POST", "/v1/consolidate", {
      body: { message: "We never deploy on Fridays" },
    });
    expect(second.status).toBe(200);
    expect(second.body.superseded).toEqual([first.body.promoted.key]);
    expect(second.body.conflict).toMatchObject({ mode: "rules", threshold: 0.7 });
    expect((await memory.get(first.body.promoted.key))?.supersededBy).toBe(
      second.body.promoted.key,
    );
    expect(await memory.count({ categories: ["core"] })).toBe(1);
    expect(await memory.count({ categories: ["daily"] })).toBe(2);

    const chatter = await server.call("POST", "/v1/consolidate", {
      body: { message: "thanks, that looks good" },
    });
    expect(chatter.body).toMatchObject({ notPromoted: "importance", superseded: [] });
    expect(chatter.body.promoted).toBeUndefined();
    const skipped = await server.call("POST", "/v1/consolidate", { body: { message: "  " } });
    expect(skipped.body).toMatchObject({ skipped: "empty", superseded: [] });
    expect(await memory.count({ categories: ["daily"] })).toBe(3);
  });

  it("runs its own check with conflict_threshold from memory.toml when the store's is off (the rules decide)", async () => {
    const memory = await sqlite(createTestEmbedder({ dimensions: 256 }), { conflictMode: "off" });
    const server = await serve({ memory, config: configWith("conflict_threshold = 2") });
    const first = await server.call("POST", "/v1/consolidate", {
      body: { message: "We always deploy on Fridays" },
    });
    const second = await server.call("POST", "/v1/consolidate", {
      body: { message: "We never deploy on Fridays" },
    });
    // The threshold only decides for text_language = "none"; it is reported, the rules decide.
    expect(second.body.conflict).toMatchObject({ mode: "rules", threshold: 2 });
    expect(second.body.superseded).toEqual([first.body.promoted.key]);
    expect(await memory.count({ categories: ["core"] })).toBe(1);
  });

  it("respects token namespaces and validates the body", async () => {
    const memory = await sqlite();
    const server = await serve({ memory, config: configWith() });
    const message = "The team must always review migrations";
    const denied = await server.call("POST", "/v1/consolidate", {
      token: TOKEN_A,
      body: { message, namespace: "b" },
    });
    expect(denied.status).toBe(403);
    expect(denied.body.error.code).toBe("FORBIDDEN");
    expect(await memory.count({ namespace: "b" })).toBe(0);

    // No namespace: the token's own.
    const own = await server.call("POST", "/v1/consolidate", { token: TOKEN_A, body: { message } });
    expect(own.status).toBe(200);
    expect(own.body.promoted.namespace).toBe("a");
    expect(await memory.count({ namespace: "a" })).toBe(2);

    for (const body of [{}, { message, extra: 1 }, { message: 42 }, { userMessage: message }]) {
      const invalid = await server.call("POST", "/v1/consolidate", { body });
      expect(invalid.status).toBe(400);
      expect(invalid.body.error.code).toBe("INVALID_INPUT");
    }
  });
});

describe("POST /v1/remember (SQLite, scripted loopback chat server)", () => {
  it("stores the turn and the facts the chat model extracts", async () => {
    const memory = await sqlite();
    const server = await serve({ memory, config: chatConfig() });
    chat.reply(
      facts(
        { key: "user_editor", content: "The user edits code in Neovim", kind: "preference" },
        { content: "The user always indents with tabs", kind: "preference", importance: 0.9 },
      ),
    );
    const response = await server.call("POST", "/v1/remember", {
      body: {
        message: "I switched to Neovim last week and I always use tabs.",
        reply: "Noted!",
        sessionId: "s1",
        namespace: "alice",
      },
    });
    expect(response.status).toBe(200);
    expect(response.body.attempts).toBe(1);
    expect(response.body.turn).toMatchObject({
      category: "conversation",
      namespace: "alice",
      sessionId: "s1",
      content: "User: I switched to Neovim last week and I always use tabs.\nAssistant: Noted!",
    });
    expect(response.body.facts.map((fact: Json) => [fact.key, fact.category, fact.kind])).toEqual([
      ["user_editor", "core", "preference"],
      ["fact_preference_the_user_always_indents_with_tabs", "core", "preference"],
    ]);
    expect(response.body.turn).not.toHaveProperty("embedding");
    expect(await memory.get("user_editor", { namespace: "alice" })).toMatchObject({
      content: "The user edits code in Neovim",
      sessionId: "s1",
    });
    expect(await memory.count({ namespace: "alice" })).toBe(3);
    expect(chat.requests).toHaveLength(1);
    expect(chat.requests[0]?.body.model).toBe("scripted-chat");
    expect(chat.userMessages()[0]?.[0]).toContain("Neovim");
  });

  it("answers 501 UNSUPPORTED without a chat model, saying to set chat_provider", async () => {
    const memory = await sqlite();
    const server = await serve({ memory, config: configWith() });
    const response = await server.call("POST", "/v1/remember", {
      body: { message: "I moved to Neovim" },
    });
    expect(response.status).toBe(501);
    expect(response.body.error.code).toBe("UNSUPPORTED");
    expect(response.body.error.message).toContain("chat_provider");
    expect(await memory.count()).toBe(0);
    // An explicit `chatModel: null` wins over the configuration.
    const without = await serve({ memory, config: chatConfig(), chatModel: null });
    expect(
      (await without.call("POST", "/v1/remember", { body: { message: "I moved to Neovim" } }))
        .status,
    ).toBe(501);
    expect(chat.requests).toHaveLength(0);
  });

  it("keeps the ChatOutputError code on unusable answers, and the turn is stored anyway", async () => {
    const memory = await sqlite();
    const server = await serve({ memory, config: chatConfig() });
    // remember_retries defaults to 1: two unusable answers.
    chat.reply({ content: "Sure! The user likes Neovim." }, { content: '{"facts": "none"}' });
    const response = await server.call("POST", "/v1/remember", {
      body: { message: "I moved to Neovim last week" },
    });
    expect(response.status).toBe(503);
    expect(response.body.error.code).toBe("BACKEND_UNAVAILABLE");
    expect(chat.requests).toHaveLength(2);
    const [turn] = await memory.list({ categories: ["conversation"] });
    expect(turn?.content).toBe("I moved to Neovim last week");
    expect(response.body.error.message).toContain(turn!.key);
    expect(await memory.count({ categories: ["core"] })).toBe(0);
  });

  it("asks the model remember_retries + 1 times at most (memory.toml)", async () => {
    const memory = await sqlite();
    const server = await serve({ memory, config: chatConfig("remember_retries = 0") });
    chat.reply({ content: "not json" }, facts());
    const response = await server.call("POST", "/v1/remember", {
      body: { message: "I moved to Neovim last week" },
    });
    expect(response.body.error.code).toBe("BACKEND_UNAVAILABLE");
    expect(chat.requests).toHaveLength(1);
    expect(await memory.count({ categories: ["conversation"] })).toBe(1);
  });

  it("respects token namespaces before calling the model", async () => {
    const memory = await sqlite();
    const server = await serve({ memory, config: chatConfig() });
    const denied = await server.call("POST", "/v1/remember", {
      token: TOKEN_A,
      body: { message: "I moved to Neovim", namespace: "b" },
    });
    expect(denied.status).toBe(403);
    expect(denied.body.error.code).toBe("FORBIDDEN");
    expect(chat.requests).toHaveLength(0);
    expect(await memory.count()).toBe(0);
  });
});

describe("OpenAPI", () => {
  it("documents both routes with registered request and response schemas", async () => {
    const server = await serve({});
    const document = (await (await fetch(`${server.url}/openapi.json`)).json()) as Json;
    for (const [route, name] of [
      ["/v1/consolidate", "Consolidate"],
      ["/v1/remember", "Remember"],
    ] as const) {
      const operation = document.paths[route].post;
      expect(operation.tags).toEqual(["agent"]);
      expect(operation.requestBody.content["application/json"].schema).toEqual({
        $ref: `#/components/schemas/${name}Request`,
      });
      expect(operation.responses["200"].content["application/json"].schema).toEqual({
        $ref: `#/components/schemas/${name}Response`,
      });
      expect(document.components.schemas[`${name}Request`].required).toEqual(["message"]);
    }
    expect(document.paths["/v1/remember"].post.responses).toHaveProperty("501");
    expect(document.paths["/v1/remember"].post.description).toContain("turn is stored anyway");
  });
});

describe("MCP memory_consolidate and memory_remember", () => {
  async function connect(url: string, token = TOKEN_ALL): Promise<Client> {
    const client = new Client({ name: "memory-test", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${url}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      }),
    );
    clients.push(client);
    return client;
  }

  it("offers memory_remember only with a chat model", async () => {
    const server = await serve({ memory: await sqlite(), config: configWith() });
    const { tools } = await (await connect(server.url)).listTools();
    const names = tools.map((tool) => tool.name);
    expect(names).toContain("memory_consolidate");
    expect(names).not.toContain("memory_remember");
  });

  it("calls both tools, with structured results and the token's namespaces", async () => {
    const memory = await sqlite(createTestEmbedder({ dimensions: 256 }));
    const server = await serve({ memory, config: chatConfig() });
    const client = await connect(server.url);
    const { tools } = await client.listTools();
    for (const name of ["memory_consolidate", "memory_remember"]) {
      const tool = tools.find((candidate) => candidate.name === name)!;
      expect(tool.description!.length).toBeGreaterThan(200);
      expect(tool.inputSchema.required).toEqual(["message"]);
      expect(tool.outputSchema).toBeDefined();
    }

    const first = await client.callTool({
      name: "memory_consolidate",
      arguments: { message: "We always deploy on Fridays", reply: "Noted." },
    });
    expect(first.isError).toBeFalsy();
    const report = first.structuredContent as Json;
    // The structured part carries metadata; the content is the caller's own message.
    expect(report.promoted).toMatchObject({
      category: "core",
      contentChars: "We always deploy on Fridays".length,
    });
    expect(report.promoted).not.toHaveProperty("content");
    expect((await memory.get(report.promoted.key))?.content).toBe("We always deploy on Fridays");
    const second = await client.callTool({
      name: "memory_consolidate",
      arguments: { message: "We never deploy on Fridays" },
    });
    expect((second.structuredContent as Json).superseded).toEqual([report.promoted.key]);
    expect((second.content as { text: string }[])[0]!.text).toContain(
      `It replaces the older memory ${report.promoted.key}.`,
    );

    chat.reply(
      facts({ key: "user_editor", content: "The user edits code in Neovim", kind: "preference" }),
    );
    const remembered = await client.callTool({
      name: "memory_remember",
      arguments: { message: "I moved to Neovim last week", sessionId: "mcp-1" },
    });
    expect(remembered.isError).toBeFalsy();
    const structured = remembered.structuredContent as Json;
    expect(structured.turn).toMatchObject({ category: "conversation", sessionId: "mcp-1" });
    expect(structured.facts).toEqual([
      expect.objectContaining({ key: "user_editor", kind: "preference", category: "core" }),
    ]);
    expect((remembered.content as { text: string }[])[0]!.text).toContain(
      "user_editor (preference): The user edits code in Neovim",
    );

    // A malformed answer is a tool error with the code; the turn is kept.
    chat.reply({ content: "no" }, { content: "still no" });
    const failed = await client.callTool({
      name: "memory_remember",
      arguments: { message: "I prefer dark themes" },
    });
    expect(failed.isError).toBe(true);
    expect((failed.content as { text: string }[])[0]!.text).toMatch(/^BACKEND_UNAVAILABLE: /);
    expect(await memory.count({ categories: ["conversation"] })).toBe(2);

    const scoped = await connect(server.url, TOKEN_A);
    for (const name of ["memory_consolidate", "memory_remember"]) {
      const denied = await scoped.callTool({
        name,
        arguments: { message: "We must always use tabs", namespace: "b" },
      });
      expect(denied.isError).toBe(true);
      expect((denied.content as { text: string }[])[0]!.text).toMatch(/^FORBIDDEN: /);
    }
    expect(await memory.count({ namespace: "b" })).toBe(0);
  });
});
