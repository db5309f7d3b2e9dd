/**
 * The store a collections benchmark runs on: `--backend sqlite` (default: a file in the run's
 * temporary folder) or `--backend postgres` (a schema of its own, dropped at the end, in the
 * database of `--postgres-url`, else MEMORY_TEST_POSTGRES_URL, else MEMORY_POSTGRES_URL).
 */
import { randomBytes } from "node:crypto";
import path from "node:path";
import type { EmbeddingProvider, Memory } from "@memory/api";
import { createPostgresMemory } from "@memory/postgres";
import { createSqliteMemory } from "@memory/sqlite";
import pg from "pg";

export const BACKEND_OPTIONS = {
  backend: { type: "string", default: "sqlite" },
  "postgres-url": { type: "string" },
} as const;

export interface BenchBackend {
  /** For the printed header: `sqlite` or `postgres (<database>)`. */
  label: string;
  /** A new store: a file under `dir` named `name`, or a new schema. */
  open(dir: string, name: string, embedder?: EmbeddingProvider): Memory;
  /** Drops the schemas this run created (the SQLite files go with the run's folder). */
  cleanup(): Promise<void>;
}

export function benchBackend(values: { backend?: string; "postgres-url"?: string }): BenchBackend {
  const backend = values.backend ?? "sqlite";
  if (backend === "sqlite")
    return {
      label: "sqlite",
      open: (dir, name, embedder) =>
        createSqliteMemory({
          path: path.join(dir, `${name}.db`),
          ...(embedder ? { embedder } : {}),
        }),
      cleanup: async () => {},
    };
  if (backend !== "postgres")
    throw new Error(`--backend must be sqlite or postgres, not ${JSON.stringify(backend)}`);
  const url =
    values["postgres-url"] ??
    process.env.MEMORY_TEST_POSTGRES_URL ??
    process.env.MEMORY_POSTGRES_URL;
  if (!url)
    throw new Error(
      "--backend postgres needs a database: pass --postgres-url postgresql://user@host:5432/db or set MEMORY_TEST_POSTGRES_URL (a schema of its own is created there and dropped at the end).",
    );
  const schemas: string[] = [];
  return {
    label: `postgres (${new URL(url).pathname.slice(1)})`,
    open: (_dir, _name, embedder) => {
      const schema = `bench_${randomBytes(5).toString("hex")}`;
      schemas.push(schema);
      return createPostgresMemory({
        connectionString: url,
        schema,
        ...(embedder ? { embedder } : {}),
      });
    },
    cleanup: async () => {
      if (schemas.length === 0) return;
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        // The names are this module's own (bench_ + hex), never input.
        for (const schema of schemas.splice(0))
          await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      } finally {
        await client.end();
      }
    },
  };
}
