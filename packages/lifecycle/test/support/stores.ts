import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { ChatModel, EmbeddingProvider, Memory, RetrievalSettings } from "@memory/api";
import { createOpenAIChatModel } from "@memory/embeddings/openai";
import { createMarkdownMemory } from "@memory/markdown";
import { createPostgresMemory } from "@memory/postgres";
import { createSqliteMemory } from "@memory/sqlite";
import { ChatServer } from "@memory/testkit";
import pg from "pg";
import { afterAll, afterEach, beforeAll } from "vitest";

export const POSTGRES_URL =
  process.env.MEMORY_TEST_POSTGRES_URL ?? "postgresql://postgres@127.0.0.1:5432/memory_test";

/** The real OpenAI-compatible chat model against a loopback server; retries without waiting. */
export function chatModelFor(baseURL: string, extra: { timeoutMs?: number } = {}): ChatModel {
  return createOpenAIChatModel({
    preset: "custom",
    baseURL,
    model: "scripted-chat",
    maxRetries: 1,
    retryBaseDelayMs: 1,
    sleep: async () => {},
    ...extra,
  });
}

/** What a test store is opened with (library options, camelCase). */
export interface StoreOptions {
  embedder?: EmbeddingProvider;
  settings?: Partial<RetrievalSettings>;
}

/** Real stores (SQLite file in a temp dir; PostgreSQL schema of its own) closed and removed by `cleanup`. */
export function storeFactory() {
  const dirs: string[] = [];
  const schemas: string[] = [];
  const open: Memory[] = [];
  return {
    tempDir(): string {
      const dir = mkdtempSync(path.join(tmpdir(), "memory-lifecycle-llm-"));
      dirs.push(dir);
      return dir;
    },
    /** Keeps `memory` to be closed by `cleanup`. */
    track(memory: Memory): Memory {
      open.push(memory);
      return memory;
    },
    sqlite(options: StoreOptions = {}): Memory {
      return this.track(
        createSqliteMemory({
          path: path.join(this.tempDir(), "brain.db"),
          ...(options.embedder ? { embedder: options.embedder } : {}),
          ...options.settings,
        }),
      );
    },
    markdown(options: StoreOptions = {}): Memory {
      return this.track(
        createMarkdownMemory({
          root: this.tempDir(),
          ...(options.embedder ? { embedder: options.embedder } : {}),
          ...options.settings,
        }),
      );
    },
    postgres(options: StoreOptions = {}): Memory {
      const schema = `t_lifecycle_${randomBytes(5).toString("hex")}`;
      schemas.push(schema);
      return this.track(
        createPostgresMemory({
          connectionString: POSTGRES_URL,
          schema,
          ...(options.embedder ? { embedder: options.embedder } : {}),
          ...options.settings,
        }),
      );
    },
    async cleanup(): Promise<void> {
      await Promise.all(open.splice(0).map((memory) => memory.close()));
      for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
      if (schemas.length === 0) return;
      const client = new pg.Client({ connectionString: POSTGRES_URL });
      await client.connect();
      try {
        for (const schema of schemas.splice(0))
          await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      } finally {
        await client.end();
      }
    },
  };
}

/**
 * The fixture of the chat-model tests: a scripted loopback chat server for the whole file
 * (replies cleared after each test) and real stores removed after each test.
 */
export function useChatFixture() {
  const stores = storeFactory();
  let server: ChatServer | undefined;
  beforeAll(async () => {
    server = await ChatServer.start();
  });
  afterEach(async () => {
    server?.reset();
    await stores.cleanup();
  });
  afterAll(async () => {
    await server?.close();
  });
  return {
    stores,
    get server(): ChatServer {
      if (!server) throw new Error("the chat server starts in beforeAll");
      return server;
    },
  };
}
