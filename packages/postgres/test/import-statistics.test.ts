import type { ImportEntry } from "@memory/api";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { needsAnalyze, REANALYZE_GROWTH } from "../src/import-statistics.js";
import { createPostgresMemory, type PostgresMemory } from "../src/index.js";
import { admin, schemaRegistry, TEST_URL } from "./helpers.js";

const schemas = schemaRegistry("ist");
const opened: PostgresMemory[] = [];
afterEach(async () => {
  await Promise.allSettled(opened.splice(0).map((memory) => memory.close()));
});
afterAll(() => schemas.dropAll());

function create(): PostgresMemory {
  const memory = createPostgresMemory({
    connectionString: TEST_URL,
    schema: schemas.next(),
    maxConnections: 2,
    logger: () => {},
  });
  opened.push(memory);
  return memory;
}

function* entries(count: number, from = 0): Generator<ImportEntry> {
  for (let i = from; i < from + count; i++)
    yield { key: `k${i}`, content: `imported note ${i} about orchards and rivers` };
}

/** Whether the planner has statistics of the schema's entries table. */
async function analyzed(schema: string): Promise<boolean> {
  const rows = await admin<{ n: string }>(
    "SELECT count(*) AS n FROM pg_stats WHERE schemaname = $1 AND tablename = 'memories'",
    [schema],
  );
  return Number(rows[0]!.n) > 0;
}

/** Cleans the search index's pending list; the pages it merged (0: nothing was pending). */
async function pendingPages(schema: string): Promise<number> {
  const rows = await admin<{ pages: number }>(
    "SELECT gin_clean_pending_list(to_regclass($1))::int AS pages",
    [`"${schema}".memories_search`],
  );
  return rows[0]!.pages;
}

async function searchIndexOptions(schema: string): Promise<string[] | null> {
  const rows = await admin<{ options: string[] | null }>(
    "SELECT reloptions AS options FROM pg_class WHERE oid = to_regclass($1)",
    [`"${schema}".memories_search`],
  );
  return rows[0]!.options;
}

describe("postgres: what an import leaves for the recalls after it", () => {
  it("takes the planner's statistics of an imported table that had none", async () => {
    const memory = create();
    await memory.init();
    expect(await analyzed(memory.schema)).toBe(false);
    await memory.importEntries(entries(1500));
    expect(await analyzed(memory.schema)).toBe(true);
    // The index the import dropped and built again keeps the bounded pending list.
    expect(await searchIndexOptions(memory.schema)).toEqual(["gin_pending_list_limit=128"]);
  });

  it("merges the rows it added to a non-empty table into the search index", async () => {
    const memory = create();
    await memory.store({ key: "first", content: "already here" });
    // A small import (the index stays) of fewer rows than fill the bounded pending list.
    await memory.importEntries(entries(200));
    expect(await pendingPages(memory.schema)).toBe(0);
    // Stores still use the pending list (cheap writes); the import is what merges it.
    await memory.store({ key: "second", content: "one more orchard" });
    expect(await pendingPages(memory.schema)).toBeGreaterThan(0);
    const [hit] = await memory.recall("orchards 199", { mode: "bm25", limit: 1 });
    expect(hit?.key).toBe("k199");
  });
});

describe("postgres: when an import analyzes", () => {
  it("analyzes a table without statistics, or one that doubled or halved since", () => {
    expect(needsAnalyze({ counted: -1, entries: 10, analyzed: false })).toBe(true);
    expect(needsAnalyze({ counted: 1000, entries: 1000, analyzed: false })).toBe(true);
    expect(needsAnalyze({ counted: 1000, entries: 1999, analyzed: true })).toBe(false);
    expect(needsAnalyze({ counted: 1000, entries: 1000 * REANALYZE_GROWTH, analyzed: true })).toBe(
      true,
    );
    expect(needsAnalyze({ counted: 1000, entries: 1000 / REANALYZE_GROWTH, analyzed: true })).toBe(
      true,
    );
    expect(needsAnalyze({ counted: 0, entries: 0, analyzed: false })).toBe(false);
  });
});
