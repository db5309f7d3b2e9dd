import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Memory } from "@memory/api";
import { createMarkdownMemory } from "@memory/markdown";
import { createPostgresMemory } from "@memory/postgres";
import { afterAll, afterEach, describe, it } from "vitest";
import { openTestBackend } from "./backends.js";
import { startTestServer, TOKEN_ALL } from "./helpers.js";
import { connect, httpTransport, scriptedChat } from "./mcp-clients.js";
import { exerciseLargeEntries, exerciseTools } from "./mcp-exercise.js";

const POSTGRES_URL =
  process.env.MEMORY_TEST_POSTGRES_URL ?? "postgresql://postgres@127.0.0.1:5432/memory_test";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});
const schemas: string[] = [];
afterAll(async () => {
  if (schemas.length === 0) return;
  // pg is a dependency of @memory/postgres, not of the server: resolve it from there.
  const require = createRequire(import.meta.resolve("@memory/postgres"));
  const pg = require("pg") as {
    Client: new (options: {
      connectionString: string;
    }) => {
      connect(): Promise<void>;
      query(sql: string): Promise<unknown>;
      end(): Promise<void>;
    };
  };
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  await client.connect();
  try {
    for (const schema of schemas.splice(0))
      await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await client.end();
  }
});

/** Each backend a server can serve, opened fresh for one test. */
const backends: Record<string, () => Promise<Memory>> = {
  sqlite: async () => {
    const backend = await openTestBackend();
    cleanups.push(() => backend.cleanup());
    return backend.memory;
  },
  postgres: async () => {
    const schema = `t_mcp_${randomBytes(5).toString("hex")}`;
    schemas.push(schema);
    const memory = createPostgresMemory({ connectionString: POSTGRES_URL, schema });
    cleanups.push(() => memory.close());
    return memory;
  },
  markdown: async () => {
    const root = mkdtempSync(path.join(tmpdir(), "memory-mcp-md-"));
    const memory = createMarkdownMemory({ root, logger: () => {} });
    cleanups.push(async () => {
      await memory.close();
      rmSync(root, { recursive: true, force: true });
    });
    return memory;
  },
};

describe.each(Object.keys(backends))("MCP tools on the %s backend (streamable HTTP)", (name) => {
  it("lists and calls every tool with valid and invalid arguments, and reads the resources", async () => {
    const memory = await backends[name]!();
    const server = await startTestServer({ memory, chatModel: scriptedChat });
    const client = await connect(httpTransport(server.url, TOKEN_ALL));
    await exerciseTools(client, { remember: true });
  });

  it("keeps results bounded with six 1,000,000-character entries", async () => {
    const memory = await backends[name]!();
    const server = await startTestServer({ memory });
    const client = await connect(httpTransport(server.url, TOKEN_ALL));
    await exerciseLargeEntries(client);
  });
});
