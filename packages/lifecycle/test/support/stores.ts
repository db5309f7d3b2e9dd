import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { ChatModel, Memory } from "@memory/api";
import { createOpenAIChatModel } from "@memory/embeddings/openai";
import { createPostgresMemory } from "@memory/postgres";
import { createSqliteMemory } from "@memory/sqlite";
import pg from "pg";

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
    sqlite(): Memory {
      const memory = createSqliteMemory({ path: path.join(this.tempDir(), "brain.db") });
      open.push(memory);
      return memory;
    },
    postgres(): Memory {
      const schema = `t_llm_${randomBytes(5).toString("hex")}`;
      schemas.push(schema);
      const memory = createPostgresMemory({ connectionString: POSTGRES_URL, schema });
      open.push(memory);
      return memory;
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
