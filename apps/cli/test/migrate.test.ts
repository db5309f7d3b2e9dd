import { randomUUID } from "node:crypto";
import { existsSync, mkdirSync, realpathSync, symlinkSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EmbeddingServer } from "./helpers/embedding-server.js";
import { json, Workspace } from "./helpers/run-memory.js";

interface MigrateResult {
  read: number;
  copied: number;
  unchanged: number;
  rejected: unknown[];
  embeddingsCopied: boolean;
}

const POSTGRES_URL =
  process.env.MEMORY_TEST_POSTGRES_URL ?? "postgresql://postgres@127.0.0.1:5432/memory_test";
const postgresDist = path.resolve(import.meta.dirname, "../../../packages/postgres/dist/index.mjs");

interface PgClient {
  connect(): Promise<void>;
  query(sql: string): Promise<unknown>;
  end(): Promise<void>;
}

// The CLI does not depend on pg itself; the tests borrow the copy @memory/postgres depends on.
function pgClient(): PgClient {
  const require = createRequire(postgresDist);
  const pg = require("pg") as { Client: new (options: object) => PgClient };
  // Generous: only a server that never answers should hit it, not a busy machine.
  return new pg.Client({ connectionString: POSTGRES_URL, connectionTimeoutMillis: 30_000 });
}

const sortedLines = (text: string) => text.trim().split("\n").sort();

/**
 * Fails, saying what to do, when @memory/postgres is not built or no PostgreSQL answers: the
 * test suite (`npm test`) sets both up, so a silent skip would only hide a broken setup.
 */
async function requirePostgres(): Promise<void> {
  if (!existsSync(postgresDist)) {
    throw new Error(
      `${postgresDist} is missing: build @memory/postgres first (\`pnpm exec turbo run build --filter @memory/postgres\`).`,
    );
  }
  const client = pgClient();
  try {
    await client.connect();
  } catch (error) {
    throw new Error(
      `No PostgreSQL answers at ${POSTGRES_URL} (${(error as Error).message}): run \`bash scripts/setup-postgres.sh\` or set MEMORY_TEST_POSTGRES_URL.`,
    );
  }
  await client.end();
}

describe("memory migrate", () => {
  let ws: Workspace;
  beforeAll(async () => {
    ws = new Workspace();
    ws.writeConfig(
      "to.toml",
      '[memory]\nembedding_provider = "noop"\n\n[sqlite]\npath = "copy/brain.db"\n',
    );
    for (let index = 0; index < 30; index++) {
      await ws.run([
        "store",
        `entry ${index}`,
        "--key",
        `k${index}`,
        ...(index % 2 ? ["--namespace", "other"] : []),
      ]);
    }
    // 30 CLI processes in a row: about 100 s on a 2-core machine under full load (measured),
    // so the bound leaves room; it is not a performance target.
  }, 300_000);
  afterAll(() => ws.remove());

  it("copies every entry from one SQLite file to another", async () => {
    const result = await ws.run([
      "migrate",
      "--from",
      "memory.toml",
      "--to",
      "to.toml",
      "--batch-size",
      "7",
      "--json",
    ]);
    expect(result.code).toBe(0);
    expect(json<MigrateResult>(result)).toMatchObject({
      read: 30,
      copied: 30,
      unchanged: 0,
      rejected: [],
      embeddingsCopied: false,
    });
    const source = (await ws.run(["export"])).stdout;
    const copy = (await ws.run(["--config", "to.toml", "export"])).stdout;
    expect(copy).toBe(source);
  });

  it("is idempotent and resumable: a second run copies only what changed", async () => {
    await ws.run(["store", "entry 3 updated", "--key", "k3", "--namespace", "other"]);
    await ws.run(["store", "a new one", "--key", "new"]);
    const result = json<MigrateResult>(
      await ws.run(["migrate", "--from", "memory.toml", "--to", "to.toml", "--json"]),
    );
    // k3's update kept its previous content as a version (docs/history.md): one more entry.
    expect(result).toMatchObject({ read: 32, copied: 3, unchanged: 29 });
    expect(
      json(await ws.run(["--config", "to.toml", "get", "k3", "--namespace", "other", "--json"])),
    ).toMatchObject({ content: "entry 3 updated" });
  });

  it("refuses to migrate a store onto itself", async () => {
    const result = await ws.run(["migrate", "--from", "memory.toml", "--to", "memory.toml"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("same store");
  });

  it("refuses a relative and an absolute path to the same SQLite file", async () => {
    mkdirSync(ws.file("sub"), { recursive: true });
    const absolute = ws.file("brain.db");
    ws.writeConfig(
      "sub/absolute.toml",
      `[memory]\nembedding_provider = "noop"\n\n[sqlite]\npath = ${JSON.stringify(absolute)}\n`,
    );
    ws.writeConfig(
      "sub/relative.toml",
      '[memory]\nembedding_provider = "noop"\n\n[sqlite]\npath = "../brain.db"\n',
    );
    // The same directory through a symbolic link is the same file too.
    symlinkSync(ws.dir, ws.file("sub/link"), "dir");
    ws.writeConfig(
      "sub/linked.toml",
      '[memory]\nembedding_provider = "noop"\n\n[sqlite]\npath = "link/brain.db"\n',
    );
    for (const [from, to] of [
      ["memory.toml", "sub/absolute.toml"],
      ["sub/relative.toml", "sub/absolute.toml"],
      ["sub/linked.toml", "memory.toml"],
    ] as const) {
      const result = await ws.run(["migrate", "--from", from, "--to", to]);
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toContain("same store");
      expect(result.stderr).toContain(realpathSync(absolute));
    }
  });

  it("needs both --from and --to", async () => {
    expect((await ws.run(["migrate", "--from", "memory.toml"])).code).toBe(2);
  });

  it("copies into PostgreSQL", async () => {
    await requirePostgres();
    const schema = `cli_${randomUUID().replaceAll("-", "").slice(0, 12)}`;
    ws.writeConfig(
      "pg.toml",
      `[memory]\nbackend = "postgres"\nembedding_provider = "noop"\n\n[postgres]\nurl = "${POSTGRES_URL}"\nschema = "${schema}"\n`,
    );
    try {
      const result = await ws.run([
        "migrate",
        "--from",
        "memory.toml",
        "--to",
        "pg.toml",
        "--json",
      ]);
      expect(result.code, result.stderr).toBe(0);
      expect(json<MigrateResult>(result)).toMatchObject({ read: 32, copied: 32, rejected: [] });
      // Compared as sorted lines: "oldest first" is createdAt order in @memory/sqlite but
      // updatedAt order in @memory/postgres, so an updated entry sits elsewhere in the stream.
      const source = sortedLines((await ws.run(["export"])).stdout);
      const copy = sortedLines((await ws.run(["--config", "pg.toml", "export"])).stdout);
      expect(copy).toEqual(source);
      // And back: postgres -> a fresh SQLite file.
      ws.writeConfig(
        "back.toml",
        '[memory]\nembedding_provider = "noop"\n\n[sqlite]\npath = "back/brain.db"\n',
      );
      expect(
        json<MigrateResult>(
          await ws.run(["migrate", "--from", "pg.toml", "--to", "back.toml", "--json"]),
        ),
      ).toMatchObject({ copied: 32 });
      expect(sortedLines((await ws.run(["--config", "back.toml", "export"])).stdout)).toEqual(
        source,
      );
    } finally {
      const client = pgClient();
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await client.end();
    }
  });

  it("copies into PostgreSQL with an embedder again and again: existing keys update their vectors", async () => {
    await requirePostgres();
    // 64 dimensions: at 8, hash collisions can leave a synonym at cosine 0 (no vector rank).
    const embeddings = await EmbeddingServer.start(64);
    const schema = `cli_${randomUUID().replaceAll("-", "").slice(0, 12)}`;
    const embedded = new Workspace("", embeddings.toml(64));
    embedded.writeConfig(
      "pg.toml",
      `[memory]\nbackend = "postgres"\n${embeddings.toml(64)}\n\n[postgres]\nurl = "${POSTGRES_URL}"\nschema = "${schema}"\n`,
    );
    const migrate = async () => {
      const result = await embedded.run([
        "migrate",
        "--from",
        "memory.toml",
        "--to",
        "pg.toml",
        "--json",
      ]);
      expect(result.code, result.stderr).toBe(0);
      return json<MigrateResult>(result);
    };
    try {
      for (const [key, content] of [
        ["car", "The user drives an old sedan"],
        ["coffee", "Espresso before every standup"],
      ]) {
        expect((await embedded.run(["store", content!, "--key", key!])).code).toBe(0);
        // The target already holds the key, under its own id and with its own vector.
        const target = await embedded.run([
          "--config",
          "pg.toml",
          "store",
          `old ${content}`,
          "--key",
          key!,
        ]);
        expect(target.code, target.stderr).toBe(0);
      }
      expect(await migrate()).toMatchObject({
        read: 2,
        copied: 2,
        rejected: [],
        embeddingsCopied: true,
      });
      // Both keys exist in the target now: a changed source entry and a new one copy over them.
      await embedded.run([
        "store",
        "The user drives a new hound-friendly automobile",
        "--key",
        "car",
      ]);
      await embedded.run(["store", "The dog sleeps in the home office", "--key", "dog"]);
      // car's change keeps a version of its previous content, copied with it.
      expect(await migrate()).toMatchObject({ read: 4, copied: 3, unchanged: 1, rejected: [] });
      expect(sortedLines((await embedded.run(["--config", "pg.toml", "export"])).stdout)).toEqual(
        sortedLines((await embedded.run(["export"])).stdout),
      );
      // Each copied entry has its vector under its new id: a synonym only the embedder knows
      // finds it by meaning (vector ranks count from 0).
      for (const [query, key] of [
        ["vehicle", "car"],
        ["latte", "coffee"],
        ["puppy", "dog"],
      ] as const) {
        const recall = json<{ results: { key: string; explain: { vectorRank?: number } }[] }>(
          await embedded.run([
            "--config",
            "pg.toml",
            "recall",
            query,
            "--min-score",
            "0",
            "--json",
          ]),
        );
        expect(recall.results.find((result) => result.key === key)).toMatchObject({
          explain: { vectorRank: expect.any(Number) },
        });
      }
    } finally {
      embedded.remove();
      await embeddings.close();
      const client = pgClient();
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await client.end();
    }
  });
});

describe("memory migrate and usage", () => {
  let ws: Workspace;
  beforeAll(() => {
    ws = new Workspace();
    ws.writeConfig(
      "to.toml",
      '[memory]\nembedding_provider = "noop"\n\n[sqlite]\npath = "copy/brain.db"\n',
    );
  });
  afterAll(() => ws.remove());

  it("carries pins, snoozes and usage statistics to the other store", async () => {
    await ws.run(["store", "The user edits code in Neovim", "--key", "editor"]);
    await ws.run(["store", "The user drinks green tea", "--key", "tea"]);
    expect((await ws.run(["pin", "editor"])).code).toBe(0);
    expect((await ws.run(["snooze", "tea", "--for", "7d"])).code).toBe(0);
    const { recallId } = json<{ recallId: string }>(
      await ws.run(["recall", "Neovim", "--min-score", "0", "--json"]),
    );
    expect((await ws.run(["feedback", recallId, "--used", "editor"])).code).toBe(0);
    const migrated = await ws.run([
      "migrate",
      "--from",
      "memory.toml",
      "--to",
      "to.toml",
      "--json",
    ]);
    expect(migrated.code, migrated.stderr).toBe(0);
    const copy = (args: string[]) => ws.run(["--config", "to.toml", ...args]);
    expect(json<{ pinned?: boolean }>(await copy(["get", "editor", "--json"])).pinned).toBe(true);
    expect(
      json<{ snoozedUntil?: string }>(await copy(["get", "tea", "--json"])).snoozedUntil,
    ).toEqual(expect.any(String));
    const report = json<{ entries: { key: string; stats: { used: number } }[] }>(
      await copy(["usage", "--json"]),
    );
    expect(report.entries.find((entry) => entry.key === "editor")?.stats.used).toBe(1);
  });
});
