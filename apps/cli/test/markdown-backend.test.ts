import { randomUUID } from "node:crypto";
import { appendFileSync, existsSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { json, Workspace } from "./helpers/run-memory.js";

const POSTGRES_URL =
  process.env.MEMORY_TEST_POSTGRES_URL ?? "postgresql://postgres@127.0.0.1:5432/memory_test";
const postgresDist = path.resolve(import.meta.dirname, "../../../packages/postgres/dist/index.mjs");

// Values that stress the Markdown format: line breaks, Markdown syntax, comment markers, escapes.
const TRICKY = [
  "line one\nline two\r\nline three\rend",
  "- **looks**: like another entry <!-- memory {} -->",
  "# a heading\n\n```\ncode\n```",
  "ends with spaces and a tab  \t",
  "  starts with spaces",
  "a --> b <!-- c \\ d ** e : f",
  "[Conversation] not really",
  "Zürich 团队 😀 \u2028 \u0085",
];

describe("backend = markdown through the CLI", () => {
  let ws: Workspace;
  beforeAll(async () => {
    ws = new Workspace();
    ws.writeConfig(
      "md.toml",
      '[memory]\nbackend = "markdown"\nembedding_provider = "noop"\n\n[markdown]\npath = "tree"\n',
    );
    ws.writeConfig(
      "back.toml",
      '[memory]\nembedding_provider = "noop"\n\n[sqlite]\npath = "back/brain.db"\n',
    );
    const lines = TRICKY.flatMap((content, index) => [
      JSON.stringify({
        key: `tricky ${index} **: x`,
        content,
        category: index % 2 ? "daily" : "core",
      }),
      JSON.stringify({
        key: `k${index}`,
        content: `plain entry ${index}`,
        namespace: index % 3 ? "other/Team" : "default",
        category: ["core", "daily", "conversation", "project-x"][index % 4],
        sessionId: "s1",
        importance: 0.5,
      }),
    ]);
    ws.writeConfig("seed.jsonl", `${lines.join("\n")}\n`);
    const imported = await ws.run(["import", "seed.jsonl"]);
    expect(imported.code, imported.stderr).toBe(0);
    await ws.run(["store", "the newer fact", "--key", "newer"]);
    const superseded = await ws.run(["store", "an older fact", "--key", "older"]);
    expect(superseded.code).toBe(0);
  }, 300_000);
  afterAll(() => ws.remove());

  it("migrates sqlite -> markdown -> sqlite with an identical export", async () => {
    const there = await ws.run(["migrate", "--from", "memory.toml", "--to", "md.toml", "--json"]);
    expect(there.code, there.stderr).toBe(0);
    expect(json(there)).toMatchObject({ read: 18, copied: 18, rejected: [] });
    expect(readFileSync(ws.file("tree/MEMORY.md"), "utf8")).toContain(
      "- **newer**: the newer fact",
    );
    const back = await ws.run(["migrate", "--from", "md.toml", "--to", "back.toml", "--json"]);
    expect(back.code, back.stderr).toBe(0);
    expect(json(back)).toMatchObject({ read: 18, copied: 18, rejected: [] });
    // Compared as sorted lines: entries imported together share a createdAt, and backends break
    // that tie differently (SQLite by insertion, Markdown by id); every line is identical.
    const sorted = (text: string) => text.trim().split("\n").sort();
    const source = sorted((await ws.run(["export"])).stdout);
    expect(source).toHaveLength(18);
    expect(sorted((await ws.run(["--config", "md.toml", "export"])).stdout)).toEqual(source);
    expect(sorted((await ws.run(["--config", "back.toml", "export"])).stdout)).toEqual(source);
  });

  it("migrates markdown -> postgres -> markdown with an identical export", async () => {
    if (!existsSync(postgresDist))
      throw new Error(`${postgresDist} is missing: build @memory/postgres first.`);
    const schema = `md_${randomUUID().replaceAll("-", "").slice(0, 12)}`;
    ws.writeConfig(
      "pg.toml",
      `[memory]\nbackend = "postgres"\nembedding_provider = "noop"\n\n[postgres]\nurl = "${POSTGRES_URL}"\nschema = "${schema}"\n`,
    );
    ws.writeConfig(
      "md2.toml",
      '[memory]\nbackend = "markdown"\nembedding_provider = "noop"\n\n[markdown]\npath = "tree2"\nindex = false\n',
    );
    const sorted = (text: string) => text.trim().split("\n").sort();
    try {
      const there = await ws.run(["migrate", "--from", "md.toml", "--to", "pg.toml", "--json"]);
      expect(there.code, there.stderr).toBe(0);
      const back = await ws.run(["migrate", "--from", "pg.toml", "--to", "md2.toml", "--json"]);
      expect(back.code, back.stderr).toBe(0);
      const source = sorted((await ws.run(["--config", "md.toml", "export"])).stdout);
      expect(sorted((await ws.run(["--config", "pg.toml", "export"])).stdout)).toEqual(source);
      expect(sorted((await ws.run(["--config", "md2.toml", "export"])).stdout)).toEqual(source);
    } finally {
      const pg = createRequire(postgresDist)("pg") as {
        Client: new (
          options: object,
        ) => {
          connect(): Promise<void>;
          query(sql: string): Promise<unknown>;
          end(): Promise<void>;
        };
      };
      const client = new pg.Client({
        connectionString: POSTGRES_URL,
        connectionTimeoutMillis: 30_000,
      });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await client.end();
    }
  });

  it("doctor reports unreadable lines with file:line and index freshness; reindex rebuilds", async () => {
    appendFileSync(ws.file("tree/MEMORY.md"), "- **broken line without end\n");
    const doctor = await ws.run(["--config", "md.toml", "doctor", "--json"]);
    const checks = (json(doctor) as { checks: { name: string; status: string; message: string }[] })
      .checks;
    const files = checks.find((check) => check.name === "files");
    expect(files?.status).toBe("warn");
    expect(files?.message).toMatch(/MEMORY\.md:\d+ unreadable entry line/);
    const index = checks.find((check) => check.name === "index");
    expect(index).toMatchObject({ status: "warn" });
    expect(index?.message).toContain("MEMORY.md");
    rmSync(ws.file("tree/.memory-state/index.db"), { force: true });
    const reindex = await ws.run(["--config", "md.toml", "reindex"]);
    expect(reindex.code, reindex.stderr).toBe(0);
    expect(reindex.stdout).toContain("rebuilt the index");
    const recall = await ws.run(["--config", "md.toml", "recall", "newer fact", "--json"]);
    expect(recall.code, recall.stderr).toBe(0);
    expect(JSON.stringify(json(recall))).toContain("newer");
  });
});
