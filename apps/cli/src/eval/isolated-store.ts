import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { ConfigError, type EmbeddingProvider, type Memory, type MemoryConfig } from "@memory/api";
import { openConfiguredMemory } from "@memory/core";
import { CommandError } from "../cli/cli-errors.js";
import { EXIT_CODES } from "../cli/exit-codes.js";

/** Backends `memory eval` can point at a fresh, private location. */
export const EVAL_BACKENDS = ["sqlite", "postgres"] as const;

/** A store that only this evaluation uses, and that `dispose()` deletes. */
export interface IsolatedStore {
  memory: Memory;
  /** The provider recall embeds with; undefined: keyword-only. */
  provider: EmbeddingProvider | undefined;
  providerReason: string;
  /** Where the temporary store lives, for people (a directory, a schema). */
  location: string;
  /** Closes the store and deletes it (directory removed, schema dropped). Idempotent. */
  dispose(): Promise<void>;
}

export interface IsolatedStoreOptions {
  /** `--mode`: the store's `search_mode`. */
  mode?: "hybrid" | "bm25" | "embedding" | undefined;
  /** Loads `@memory/<backend>` and `@memory/embeddings` (the CLI's own loader). */
  loadModule: (specifier: string) => Promise<unknown>;
  /**
   * A provider the caller resolved once and shares between stores (`--agent-loop` opens one
   * per conversation); the caller closes it. Unset: resolved from the configuration and closed
   * by `dispose()`.
   */
  embedder?: EmbeddingProvider | undefined;
}

interface PgClient {
  connect(): Promise<void>;
  query(sql: string, values?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
  end(): Promise<void>;
}

// pg is a dependency of @memory/postgres, not of the CLI: load the copy that package uses.
function pgClient(connectionString: string): PgClient {
  const require = createRequire(import.meta.resolve("@memory/postgres"));
  const pg = require("pg") as { Client: new (options: object) => PgClient };
  return new pg.Client({ connectionString, connectionTimeoutMillis: 30_000 });
}

/** `[postgres].url`, else `MEMORY_POSTGRES_URL`, else `DATABASE_URL` (as @memory/postgres reads it). */
function postgresUrl(config: MemoryConfig, env: NodeJS.ProcessEnv): string | undefined {
  const table = config.postgres as { url?: unknown } | undefined;
  const url = typeof table?.url === "string" && table.url !== "" ? table.url : undefined;
  return url ?? env.MEMORY_POSTGRES_URL ?? env.DATABASE_URL;
}

/** Throws the `ConfigError` of {@link openIsolatedStore} for a backend it cannot isolate. */
export function assertIsolatable(backend: string): void {
  if (!(EVAL_BACKENDS as readonly string[]).includes(backend)) refuse(backend);
}

function refuse(backend: string): never {
  throw new ConfigError(
    `memory eval runs on a temporary copy of the configured backend and supports only ${EVAL_BACKENDS.join(" and ")}; backend = "${backend}" cannot be isolated from your data. Run it with a configuration for sqlite (e.g. MEMORY_BACKEND=sqlite) and the same embedding settings.`,
    { details: { backend, supported: [...EVAL_BACKENDS] } },
  );
}

/**
 * Opens the configured backend, embedder and retrieval settings on a fresh location: never the
 * user's store. SQLite: a new temporary directory. PostgreSQL: a new schema with a unique name
 * in the configured database. Automatic hydration from a snapshot is off, embedding is inline
 * (every vector exists before the first question), and a database that cannot be opened is an
 * error (no fallback to the `none` backend). `onExit` is what must still happen if the process
 * exits without `dispose()` (a second Ctrl-C): it runs synchronously.
 */
export async function openIsolatedStore(
  config: MemoryConfig,
  options: IsolatedStoreOptions,
  env: NodeJS.ProcessEnv = process.env,
): Promise<IsolatedStore> {
  const backend = config.memory.backend;
  if (!(EVAL_BACKENDS as readonly string[]).includes(backend)) refuse(backend);
  const memory = {
    ...config.memory,
    auto_hydrate: false,
    defer_embedding: false,
    ...(options.mode ? { search_mode: options.mode } : {}),
  };

  if (backend === "sqlite") {
    const dir = mkdtempSync(path.join(tmpdir(), "memory-eval-"));
    const remove = () => rmSync(dir, { recursive: true, force: true });
    // A second Ctrl-C exits at once (interruption.ts): the directory still goes.
    process.on("exit", remove);
    const cleanup = async () => {
      process.off("exit", remove);
      remove();
    };
    const isolated: MemoryConfig = {
      ...config,
      memory: { ...memory, data_dir: dir },
      sqlite: { path: path.join(dir, "eval.db"), fallback_to_none: false },
    };
    return open(isolated, options, dir, cleanup);
  }

  // PostgreSQL: a schema of our own, dropped at the end. Connect first, so a server that does
  // not answer fails before anything is created.
  const url = postgresUrl(config, env);
  if (url === undefined) {
    throw new ConfigError(
      'backend = "postgres" needs a database: set [postgres].url in memory.toml, or MEMORY_POSTGRES_URL / DATABASE_URL.',
    );
  }
  const admin = pgClient(url);
  try {
    await admin.connect();
  } catch (error) {
    await admin.end().catch(() => {});
    throw new CommandError(
      `cannot reach PostgreSQL to create the temporary schema (${(error as Error).message}); check [postgres].url (or MEMORY_POSTGRES_URL / DATABASE_URL) and that the server runs (\`memory doctor\`).`,
      EXIT_CODES.failure,
    );
  }
  let schema = "";
  for (;;) {
    schema = `memory_eval_${randomBytes(6).toString("hex")}`;
    const taken = await admin.query("SELECT 1 FROM pg_namespace WHERE nspname = $1", [schema]);
    if (taken.rows.length === 0) break;
  }
  const warnLeft = () =>
    process.stderr.write(
      `memory eval: stopped before dropping its temporary schema ${schema}; drop it with: DROP SCHEMA ${schema} CASCADE;\n`,
    );
  process.on("exit", warnLeft);
  const cleanup = async () => {
    process.off("exit", warnLeft);
    try {
      // The pgvector extension lives in its own schema (public by default); never drop it here.
      const extension = await admin.query(
        "SELECT 1 FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE n.nspname = $1",
        [schema],
      );
      if (extension.rows.length > 0) {
        throw new ConfigError(
          `the temporary schema ${schema} holds a PostgreSQL extension, so memory eval did not drop it; drop it yourself once nothing uses it: DROP SCHEMA ${schema} CASCADE;`,
        );
      }
      await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    } finally {
      await admin.end().catch(() => {});
    }
  };
  const table = (
    typeof config.postgres === "object" && config.postgres !== null ? config.postgres : {}
  ) as Record<string, unknown>;
  const isolated: MemoryConfig = {
    ...config,
    memory,
    postgres: { ...table, url, schema },
  };
  const database = (() => {
    try {
      const parsed = new URL(url);
      return `${parsed.hostname}:${parsed.port || "5432"}/${parsed.pathname.replace(/^\//, "")}`;
    } catch {
      return "the configured database";
    }
  })();
  return open(isolated, options, `schema ${schema} of ${database}`, cleanup);
}

async function open(
  config: MemoryConfig,
  options: IsolatedStoreOptions,
  location: string,
  cleanup: () => Promise<void>,
): Promise<IsolatedStore> {
  let opened: Awaited<ReturnType<typeof openConfiguredMemory>>;
  try {
    opened = await openConfiguredMemory(config, {
      embeddings: "configured",
      loadModule: options.loadModule,
      autoHydrate: false,
      ...(options.embedder ? { embedder: options.embedder } : {}),
    });
  } catch (error) {
    await cleanup();
    throw error;
  }
  let disposed: Promise<void> | undefined;
  const dispose = () => {
    disposed ??= (async () => {
      try {
        await opened.memory.close();
        // Close only what this store created: a shared provider is the caller's.
        if (!options.embedder) {
          const provider = opened.provider as { close?: () => Promise<void> } | undefined;
          await provider?.close?.();
        }
      } finally {
        await cleanup();
      }
    })();
    return disposed;
  };
  return {
    memory: opened.memory,
    provider: opened.provider,
    providerReason: opened.providerReason,
    location,
    dispose,
  };
}
