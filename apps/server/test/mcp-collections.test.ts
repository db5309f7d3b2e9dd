import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Memory } from "@memory/api";
import { defaultConfig } from "@memory/core";
import { createPostgresMemory } from "@memory/postgres";
import { createSqliteMemory } from "@memory/sqlite";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { startTestServer, TOKEN_A, TOKEN_B } from "./helpers.js";
import { connect, httpTransport, type Structured, textOf } from "./mcp-clients.js";

// Collections over MCP: the official client over streamable HTTP, with tokens scoped to one
// namespace each, against a real SQLite file and a real PostgreSQL schema.

const POSTGRES_URL =
  process.env.MEMORY_TEST_POSTGRES_URL ?? "postgresql://postgres@127.0.0.1:5432/memory_test";

let dir: string;
let roots: string;
const cleanups: (() => Promise<void>)[] = [];
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), "memory-mcp-collections-"));
  roots = path.join(dir, "roots");
  mkdirSync(path.join(roots, "team"), { recursive: true });
  mkdirSync(path.join(roots, "handbook"), { recursive: true });
  writeFileSync(
    path.join(roots, "team", "runbook.md"),
    "# Pager runbook\n\nWhen the pager fires at night, first check the queue depth dashboard.\n",
  );
  writeFileSync(
    path.join(roots, "handbook", "travel.md"),
    "# Travel policy\n\nBook trains for trips under four hours; flights need the pager lead's approval.\n",
  );
  mkdirSync(path.join(dir, "private"));
  writeFileSync(path.join(dir, "private", "keys.md"), "# Keys\n\nThe vault unseal keys.\n");
  symlinkSync(path.join(dir, "private"), path.join(roots, "escape"));
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  rmSync(dir, { recursive: true, force: true });
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

const backends: Record<string, () => Memory> = {
  sqlite: () => createSqliteMemory({ path: path.join(dir, "brain.db") }),
  postgres: () => {
    // Each test's own schema (random, so runs never see each other's collections), dropped
    // after the file's tests.
    const schema = `t_mcp_coll_${randomBytes(5).toString("hex")}`;
    schemas.push(schema);
    return createPostgresMemory({ connectionString: POSTGRES_URL, schema });
  },
};

/** A server whose memory.toml defines `handbook` in namespace b, and roots for adding. */
async function serve(backend: string, collectionRoots: string[] = [roots]) {
  const memory = backends[backend]!();
  cleanups.push(() => memory.close());
  const config = defaultConfig();
  config.collections = { handbook: { path: path.join(roots, "handbook"), namespace: "b" } };
  return startTestServer({ memory, config, collectionRoots });
}

async function call(
  client: Awaited<ReturnType<typeof connect>>,
  name: string,
  args: Record<string, unknown>,
) {
  const result = await client.callTool({ name, arguments: args });
  return { result, text: textOf(result), data: result.structuredContent as Structured };
}

describe.each(Object.keys(backends))("collections over MCP on %s", (backend) => {
  it("adds, recalls with source, chooses collections, syncs an edit and removes, within the token's namespace", async () => {
    const server = await serve(backend);
    const a = await connect(httpTransport(server.url, TOKEN_A));

    const added = await call(a, "memory_collection_add", {
      name: "runbooks",
      path: path.join(roots, "team"),
    });
    expect(added.result.isError, added.text).toBeFalsy();
    expect(added.data.collection).toMatchObject({ name: "runbooks", namespace: "a" });
    expect(added.data.sync).toMatchObject({ notes: 1, added: 1 });
    expect(added.text).toContain("runbooks: 1 note(s); 1 added");

    const recalled = await call(a, "memory_recall", { query: "pager queue depth" });
    expect(recalled.data.results[0]).toMatchObject({
      key: "collection:runbooks:runbook.md#L1-3",
      category: "runbooks",
      source: { collection: "runbooks", path: "runbook.md", startLine: 1, endLine: 3 },
    });
    expect(recalled.data.results[0].source.title).toBe("Pager runbook");
    expect(recalled.text).toContain('(runbook.md:1-3 "Pager runbook")');

    const memoryOnly = await call(a, "memory_recall", {
      query: "pager queue depth",
      collections: false,
    });
    expect(memoryOnly.data.results).toEqual([]);
    const chosen = await call(a, "memory_recall", {
      query: "pager queue depth",
      collections: ["runbooks"],
    });
    expect(chosen.data.results.map((entry: Structured) => entry.key)).toContain(
      "collection:runbooks:runbook.md#L1-3",
    );

    writeFileSync(
      path.join(roots, "team", "runbook.md"),
      "# Pager runbook\n\nWhen the pager fires at night, restart the ingest worker before anything else.\n",
    );
    const synced = await call(a, "memory_collection_sync", { name: "runbooks" });
    expect(synced.data.collections).toEqual([
      expect.objectContaining({ collection: "runbooks", changed: 1 }),
    ]);
    const edited = await call(a, "memory_recall", { query: "restart ingest worker" });
    expect(edited.text).toContain("restart the ingest worker");
    expect(edited.text).not.toContain("queue depth dashboard");

    const listed = await call(a, "memory_collection_list", {});
    expect(listed.data.collections).toEqual([
      expect.objectContaining({ name: "runbooks", namespace: "a", notes: 1 }),
    ]);
    expect(listed.text).toContain("runbooks");
    expect(listed.text).not.toContain("handbook");

    const removed = await call(a, "memory_collection_remove", { name: "runbooks" });
    expect(removed.result.isError, removed.text).toBeFalsy();
    expect(removed.data.deleted).toBeGreaterThan(0);
    const gone = await call(a, "memory_recall", { query: "restart ingest worker" });
    expect(gone.data.results).toEqual([]);
  });

  it("a token of one namespace neither sees nor uses another namespace's collection", async () => {
    const server = await serve(backend);
    const a = await connect(httpTransport(server.url, TOKEN_A));
    const b = await connect(httpTransport(server.url, TOKEN_B));
    expect(
      (await call(a, "memory_collection_add", { name: "runbooks", path: path.join(roots, "team") }))
        .result.isError,
    ).toBeFalsy();
    // memory.toml's handbook (namespace b) is indexed by its first sync.
    const syncB = await call(b, "memory_collection_sync", {});
    expect(syncB.data.collections.map((r: Structured) => r.collection)).toEqual(["handbook"]);

    const listA = await call(a, "memory_collection_list", {});
    expect(listA.data.collections.map((c: Structured) => c.name)).toEqual(["runbooks"]);
    const listB = await call(b, "memory_collection_list", {});
    expect(listB.data.collections.map((c: Structured) => c.name)).toEqual(["handbook"]);
    expect(listB.text).toContain("defined in memory.toml");

    // "pager" is in both folders: each token's recall finds its own namespace's note only.
    const recallA = await call(a, "memory_recall", { query: "pager", minScore: 0 });
    expect(recallA.data.results.map((entry: Structured) => entry.source?.collection)).toEqual([
      "runbooks",
    ]);
    const recallB = await call(b, "memory_recall", { query: "pager", minScore: 0 });
    expect(recallB.data.results.map((entry: Structured) => entry.source?.collection)).toEqual([
      "handbook",
    ]);
    const intoA = await call(b, "memory_recall", { query: "pager", namespace: "a" });
    expect(intoA.result.isError).toBe(true);
    expect(intoA.text).toMatch(/^FORBIDDEN: /);

    for (const [tool, args] of [
      ["memory_collection_sync", { name: "runbooks" }],
      ["memory_collection_remove", { name: "runbooks" }],
    ] as const) {
      const refused = await call(b, tool, args);
      expect(refused.result.isError, tool).toBe(true);
      expect(refused.text, tool).toMatch(/^FORBIDDEN: .*"runbooks"/);
    }
    // Still there for its own namespace.
    const again = await call(a, "memory_recall", { query: "pager queue depth" });
    expect(again.data.results[0].source.collection).toBe("runbooks");
  });

  it("refuses bad names, unknown collections, folders outside the roots and escaping patterns with errors that say what to do", async () => {
    const server = await serve(backend);
    const a = await connect(httpTransport(server.url, TOKEN_A));

    const badName = await call(a, "memory_collection_sync", { name: "no/slash" });
    expect(badName.result.isError).toBe(true);
    expect(badName.text).toContain("A collection name is 1-64 letters, digits, - or _");
    const badRecall = await call(a, "memory_recall", { query: "x", collections: ["a b"] });
    expect(badRecall.result.isError).toBe(true);
    expect(badRecall.text).toContain("A collection name is 1-64 letters, digits, - or _");

    // Unknown: the message names the caller's collections only, never namespace b's handbook.
    const unknown = await call(a, "memory_collection_sync", { name: "nope" });
    expect(unknown.result.isError).toBe(true);
    expect(unknown.text).toMatch(/^NOT_FOUND: no collection "nope".*memory_collection_list/);
    expect(unknown.text).not.toContain("handbook");
    const unknownRemove = await call(a, "memory_collection_remove", { name: "nope" });
    expect(unknownRemove.text).toMatch(/^NOT_FOUND: /);

    for (const folder of [path.join(dir, "private"), path.join(roots, "escape")]) {
      const outside = await call(a, "memory_collection_add", { name: "leak", path: folder });
      expect(outside.result.isError, folder).toBe(true);
      expect(outside.text, folder).toMatch(/^FORBIDDEN: .*outside \[server\]\.collection_roots/);
    }
    const escaping = await call(a, "memory_collection_add", {
      name: "up",
      path: path.join(roots, "team"),
      pattern: "../**/*.md",
    });
    expect(escaping.text).toMatch(/^INVALID_INPUT: /);
    const otherNamespace = await call(a, "memory_collection_add", {
      name: "x",
      path: path.join(roots, "team"),
      namespace: "b",
    });
    expect(otherNamespace.text).toMatch(/^FORBIDDEN: /);
    // Nothing was added by any of them.
    expect((await call(a, "memory_collection_list", {})).data.collections).toEqual([]);
    const recall = await call(a, "memory_recall", { query: "vault unseal keys", minScore: 0 });
    expect(recall.data.results).toEqual([]);
  });
});

describe("collection tools without [server].collection_roots", () => {
  it("offers list and sync only: adding and removing over MCP needs roots, as over HTTP", async () => {
    const server = await serve("sqlite", []);
    const a = await connect(httpTransport(server.url, TOKEN_A));
    const names = (await a.listTools()).tools.map((tool) => tool.name);
    expect(names).toEqual(
      expect.arrayContaining(["memory_collection_list", "memory_collection_sync"]),
    );
    expect(names).not.toContain("memory_collection_add");
    expect(names).not.toContain("memory_collection_remove");
    const listed = await call(a, "memory_collection_list", {});
    expect(listed.text).toMatch(/^No collections/);
  });
});
