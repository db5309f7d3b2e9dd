import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { ChatModel } from "@memory/api";
import { createInMemoryMemory } from "@memory/testkit";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { afterEach, expect } from "vitest";
import { createMcpServer, FULL_ACCESS, silentLogger } from "../src/index.js";
import { requireServerBuilt } from "./backends.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "..");

/** The stdio fixture over the in-memory backend (a child process running the built server). */
export const inMemoryStdioFixture = path.join(here, "fixtures/mcp-stdio-in-memory.mjs");

const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

/** An official MCP SDK client, closed after the test. */
export async function connect(transport: Transport): Promise<Client> {
  const client = new Client({ name: "memory-test", version: "1.0.0" });
  await client.connect(transport);
  clients.push(client);
  return client;
}

export function httpTransport(url: string, token?: string): StreamableHTTPClientTransport {
  return new StreamableHTTPClientTransport(new URL(`${url}/mcp`), {
    requestInit: { headers: token ? { authorization: `Bearer ${token}` } : {} },
  });
}

export function stdioTransport(
  args: string[],
  env: Record<string, string> = {},
): StdioClientTransport {
  return new StdioClientTransport({
    command: process.execPath,
    args,
    cwd: root,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...env },
    stderr: "pipe",
  });
}

/** The in-memory stdio fixture; `scriptedChat` gives it the scripted chat model below. */
export function inMemoryStdio(
  options: { scriptedChat?: boolean; env?: Record<string, string> } = {},
): StdioClientTransport {
  requireServerBuilt(); // the fixture imports dist/index.mjs
  return stdioTransport([inMemoryStdioFixture], {
    ...(options.scriptedChat ? { MEMORY_TEST_SCRIPTED_CHAT: "1" } : {}),
    ...options.env,
  });
}

/** The fixture's scripted chat model, for servers started in the test process. */
export const scriptedChat: ChatModel = {
  name: "scripted",
  model: "scripted",
  async complete() {
    return JSON.stringify({
      facts: [{ key: "user_theme", content: "The user prefers dark themes", kind: "preference" }],
    });
  },
};

// biome-ignore lint/suspicious/noExplicitAny: JSON from the wire, checked field by field
export type Structured = Record<string, any>;

/** The text part of a tool result (every result has exactly one). */
export function textOf(result: unknown): string {
  const content = (result as { content: { type: string; text: string }[] }).content;
  if (content.length !== 1 || content[0]!.type !== "text")
    throw new Error(`expected one text part, got ${JSON.stringify(content)}`);
  return content[0]!.text;
}

/** The text of a resource read's only content. */
export function resourceText(result: { contents: unknown[] }): string {
  expect(result.contents).toHaveLength(1);
  return (result.contents[0] as { text: string }).text;
}

/**
 * The tools a server in this process lists (all of them: it has the scripted chat model, and
 * collection roots, which memory_collection_add and memory_collection_remove need).
 */
export async function listInProcessTools() {
  const server = createMcpServer({
    memory: createInMemoryMemory(),
    access: FULL_ACCESS,
    version: "test",
    logger: silentLogger,
    chatModel: scriptedChat,
    collections: { configured: [], roots: [tmpdir()] },
  });
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = await connect(clientSide);
  return (await client.listTools()).tools;
}
