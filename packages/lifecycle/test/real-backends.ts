import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { EmbeddingProvider, Memory, RetrievalSettings } from "@memory/api";
import { createPostgresMemory } from "@memory/postgres";
import { createSqliteMemory } from "@memory/sqlite";
import { createInMemoryMemory } from "@memory/testkit";
import pg from "pg";
import { afterAll, afterEach } from "vitest";

const POSTGRES_URL =
  process.env.MEMORY_TEST_POSTGRES_URL ?? "postgresql://postgres@127.0.0.1:5432/memory_test";

export interface BackendOptions {
  embedder?: EmbeddingProvider;
  settings?: Partial<RetrievalSettings>;
}

/** Library options (camelCase) to memory.toml names (the reference backend takes those). */
function toml(settings: Partial<RetrievalSettings> = {}): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(settings).map(([name, value]) => [
      name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`),
      value,
    ]),
  );
}

/**
 * The backends the lifecycle scenarios run on: the reference in-memory one, a real SQLite file
 * and a real PostgreSQL schema of their own, closed and removed after each test.
 */
export function realBackends(): [string, (options?: BackendOptions) => Memory][] {
  const open: Memory[] = [];
  const dirs: string[] = [];
  const schemas: string[] = [];
  afterEach(async () => {
    await Promise.allSettled(open.splice(0).map((memory) => memory.close()));
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  afterAll(async () => {
    if (schemas.length === 0) return;
    const client = new pg.Client({ connectionString: POSTGRES_URL });
    await client.connect();
    try {
      for (const schema of schemas.splice(0))
        await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    } finally {
      await client.end();
    }
  });
  const track = (memory: Memory) => {
    open.push(memory);
    return memory;
  };
  return [
    [
      "reference",
      (options = {}) =>
        track(
          createInMemoryMemory({
            ...(options.embedder ? { embedder: options.embedder } : {}),
            settings: toml(options.settings),
          }),
        ),
    ],
    [
      "sqlite",
      (options = {}) => {
        const dir = mkdtempSync(path.join(tmpdir(), "memory-lifecycle-conflicts-"));
        dirs.push(dir);
        return track(
          createSqliteMemory({
            path: path.join(dir, "brain.db"),
            ...(options.embedder ? { embedder: options.embedder } : {}),
            ...options.settings,
          }),
        );
      },
    ],
    [
      "postgres",
      (options = {}) => {
        const schema = `t_conflicts_${randomBytes(5).toString("hex")}`;
        schemas.push(schema);
        return track(
          createPostgresMemory({
            connectionString: POSTGRES_URL,
            schema,
            ...(options.embedder ? { embedder: options.embedder } : {}),
            ...options.settings,
          }),
        );
      },
    ],
  ];
}
