import { contentKey, loadConfig } from "@memory/core";
import { createInMemoryMemory, createTestEmbedder } from "@memory/testkit";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterEach, describe, expect, it } from "vitest";
import { startTestServer, TOKEN_ALL } from "./helpers.js";

const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

function configWith(toml: string) {
  return loadConfig({ env: {}, text: `[memory]\n${toml}\n` }).config;
}

describe("POST /v1/context reads auto_recall, auto_recall_limit and auto_recall_min_score", () => {
  const store = async (server: Awaited<ReturnType<typeof startTestServer>>) => {
    for (const [key, content] of [
      ["editor", "The user edits code in Neovim"],
      ["editor-theme", "The user's editor theme is dark"],
    ])
      await server.call("POST", "/v1/memories", { body: { key, content } });
  };

  it("recalls nothing with auto_recall = false", async () => {
    const server = await startTestServer({ config: configWith("auto_recall = false") });
    await store(server);
    const context = await server.call("POST", "/v1/context", {
      body: { message: "which editor?", minScore: 0 },
    });
    expect(context.body.entries).toEqual([]);
  });

  it("takes limit and minScore from the configuration, under what the request gives", async () => {
    const server = await startTestServer({
      config: configWith("auto_recall_limit = 1\nauto_recall_min_score = 0"),
    });
    await store(server);
    const configured = await server.call("POST", "/v1/context", { body: { message: "editor" } });
    expect(configured.body.entries).toHaveLength(1);
    const requested = await server.call("POST", "/v1/context", {
      body: { message: "editor", limit: 5 },
    });
    expect(requested.body.entries).toHaveLength(2);
    const strict = await startTestServer({ config: configWith("auto_recall_min_score = 1") });
    await store(strict);
    expect(
      (await strict.call("POST", "/v1/context", { body: { message: "editor" } })).body.entries,
    ).toEqual([]);
  });
});

describe("MCP memory_store", () => {
  async function connect(url: string): Promise<Client> {
    const client = new Client({ name: "memory-test", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${url}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${TOKEN_ALL}` } },
      }),
    );
    clients.push(client);
    return client;
  }

  it("derives the key from the content when none is given, as `memory store` does", async () => {
    const server = await startTestServer();
    const client = await connect(server.url);
    const { tools } = await client.listTools();
    const tool = tools.find((candidate) => candidate.name === "memory_store")!;
    expect(tool.inputSchema.required).not.toContain("key");
    expect(tool.description).toContain('"core"');
    expect(tool.description).toContain('"daily"');
    const content = "The user edits code in Neovim";
    for (let i = 0; i < 2; i++) {
      const stored = await client.callTool({ name: "memory_store", arguments: { content } });
      expect(stored.isError).toBeFalsy();
      expect((stored.structuredContent as { entry: { key: string } }).entry.key).toBe(
        contentKey(content),
      );
    }
    expect(contentKey(content)).toMatch(/^mem-[0-9a-f]{16}$/);
    expect(await server.memory.count()).toBe(1);
  });

  it("says which older memory a stored one replaced when conflict detection is on", async () => {
    const memory = createInMemoryMemory({
      embedder: createTestEmbedder({ dimensions: 256 }),
      settings: { conflict_mode: "combined" },
    });
    const server = await startTestServer({ memory });
    const client = await connect(server.url);
    await client.callTool({
      name: "memory_store",
      arguments: { key: "diet", content: "The user is vegetarian" },
    });
    const stored = await client.callTool({
      name: "memory_store",
      arguments: { content: "The user is not vegetarian" },
    });
    expect((stored.content as { text: string }[])[0]!.text).toContain(
      "It replaces the older memory diet.",
    );
    expect((await memory.get("diet"))!.supersededBy).toBe(contentKey("The user is not vegetarian"));
  });
});
