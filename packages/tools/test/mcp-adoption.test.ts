import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { afterEach, describe, expect, it } from "vitest";
import { memoryToolDefinitions } from "../src/index.js";
import { sqliteMemory } from "./sqlite-file.js";

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/**
 * The recipe of the README's "Adopting in an MCP server", run with the official MCP SDK: the
 * server registers the definitions as they are, a client lists and calls them.
 */
async function serve(tools: ReturnType<typeof memoryToolDefinitions>): Promise<Client> {
  const server = new McpServer({ name: "memory", version: "0.0.0" });
  for (const tool of tools)
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        inputSchema: tool.inputSchema.shape,
        annotations: tool.annotations,
      },
      async (input) => {
        try {
          const { text, data } = await tool.execute(input);
          return {
            content: [{ type: "text", text }],
            structuredContent: data as Record<string, unknown>,
          };
        } catch (error) {
          return { isError: true, content: [{ type: "text", text: (error as Error).message }] };
        }
      },
    );
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: "test", version: "0.0.0" });
  await server.connect(serverTransport);
  await client.connect(clientTransport);
  closers.push(async () => {
    await client.close();
    await server.close();
  });
  return client;
}

describe("the definitions in an MCP server (official SDK, in-memory transport)", () => {
  it("list with the same names, descriptions and input schemas", async () => {
    const tools = memoryToolDefinitions(sqliteMemory());
    const client = await serve(tools);
    const listed = (await client.listTools()).tools;
    expect(listed.map((tool) => tool.name)).toEqual(tools.map((tool) => tool.name));
    for (const [index, tool] of tools.entries()) {
      expect(listed[index]?.description).toBe(tool.description);
      expect(listed[index]?.annotations).toMatchObject(tool.annotations);
      expect(Object.keys(listed[index]?.inputSchema.properties ?? {})).toEqual(
        Object.keys(tool.inputJsonSchema.properties ?? {}),
      );
      expect(listed[index]?.inputSchema.required ?? []).toEqual(
        tool.inputJsonSchema.required ?? [],
      );
    }
  });

  it("store and recall through a client, and refuse arguments outside the schema", async () => {
    const memory = sqliteMemory();
    const client = await serve(memoryToolDefinitions(memory));
    const stored = await client.callTool({
      name: "memory_store",
      arguments: { key: "editor", content: "The user edits code in Neovim" },
    });
    expect(stored.content).toEqual([
      { type: "text", text: 'Stored "editor" (core) in namespace "default".' },
    ]);
    const recalled = await client.callTool({
      name: "memory_recall",
      arguments: { query: "which editor" },
    });
    expect(recalled.structuredContent).toMatchObject({ results: [{ key: "editor" }] });
    const refused = await client.callTool({
      name: "memory_recall",
      arguments: { query: "x", limit: 5000 },
    });
    expect(refused.isError).toBe(true);
    expect(await memory.count()).toBe(1);
  });
});
