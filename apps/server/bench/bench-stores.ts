/**
 * The store our server runs on in a benchmark, one fresh store per backend and data set, so each
 * backend starts empty and a run leaves nothing behind: a directory for SQLite and Markdown, a
 * schema of its own for PostgreSQL (dropped by `drop()`).
 */
import { randomBytes } from "node:crypto";
import { mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

export const BACKENDS = ["sqlite", "postgres", "markdown"] as const;
export type Backend = (typeof BACKENDS)[number];

export interface BenchStore {
  backend: Backend;
  /** The server's working folder; its `data_dir` is ".", so SQLite and Markdown write here. */
  cwd: string;
  /** Tables of memory.toml beyond `[memory]` and `[server]` (PostgreSQL's url and schema). */
  tables: string;
  /** Removes what the store keeps outside `cwd` (the PostgreSQL schema); `cwd` is the caller's. */
  drop(): Promise<void>;
}

/** `BENCH_BACKENDS`, e.g. `sqlite,postgres,markdown`; an unknown name throws, naming the valid ones. */
export function parseBackends(list: string): Backend[] {
  return list.split(",").map((name) => {
    const backend = BACKENDS.find((known) => known === name.trim());
    if (!backend)
      throw new Error(`BENCH_BACKENDS: unknown backend "${name}" (use ${BACKENDS.join(", ")})`);
    return backend;
  });
}

/** Where PostgreSQL runs for the benchmark; without `BENCH_POSTGRES_URL` it is skipped. */
export const postgresUrl = (): string | undefined => process.env.BENCH_POSTGRES_URL || undefined;

/**
 * A fresh store in `<dir>/<backend>`. Markdown keeps its package's defaults (no `[markdown]`
 * table): the derived SQLite index on, and the file watcher on, because the server is a
 * long-running opener; that is what `memory serve` runs.
 */
export function benchStore(backend: Backend, dir: string): BenchStore {
  const cwd = path.join(dir, backend);
  mkdirSync(cwd, { recursive: true });
  if (backend !== "postgres") return { backend, cwd, tables: "", drop: async () => {} };
  const url = postgresUrl();
  if (!url) throw new Error("BENCH_POSTGRES_URL is not set: cannot run the postgres backend");
  // Schema names are [a-z_][a-z0-9_]*; random, so two runs on one database never meet.
  const schema = `bench_${randomBytes(6).toString("hex")}`;
  return {
    backend,
    cwd,
    tables: `[postgres]\nurl = "${url}"\nschema = "${schema}"\n`,
    drop: () => dropSchema(url, schema),
  };
}

interface PgClient {
  connect(): Promise<void>;
  query(text: string): Promise<unknown>;
  end(): Promise<void>;
}

async function dropSchema(url: string, schema: string): Promise<void> {
  // pg is a dependency of @memory/postgres, not of the server: resolve it from there.
  const require = createRequire(import.meta.resolve("@memory/postgres"));
  const pg = require("pg") as { Client: new (options: { connectionString: string }) => PgClient };
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await client.end();
  }
}
