import type { QueryTerm } from "@memory/api";
import pg from "pg";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { Database } from "../src/database.js";
import type { Tables } from "../src/filter-sql.js";
import { createPostgresMemory, type PostgresMemory } from "../src/index.js";
import { LexemeShares } from "../src/recall/lexeme-shares.js";
import { EXACT_FREQUENCY_CAP, namespaceStatistics } from "../src/recall/namespace-statistics.js";
import { admin, schemaRegistry, TEST_URL } from "./helpers.js";

const schemas = schemaRegistry("nst");
const closing: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  await Promise.allSettled(closing.splice(0).map((close) => close()));
});
afterAll(() => schemas.dropAll());

const SIZE = 3000;
// Made-up words the stemmer keeps as they are: every entry holds "ploverq", every third
// "heronq", ten "egretq".
const content = (i: number) =>
  `ploverq ${i % 3 === 0 ? "heronq " : ""}${i < 10 ? "egretq " : ""}note${i}`;

async function filled(namespaces: Record<string, number>): Promise<PostgresMemory> {
  const memory = createPostgresMemory({ connectionString: TEST_URL, schema: schemas.next() });
  closing.push(() => memory.close());
  for (const [namespace, size] of Object.entries(namespaces))
    await memory.importEntries(
      Array.from({ length: size }, (_, i) => ({ key: `k${i}`, content: content(i), namespace })),
    );
  return memory;
}

function statistics(schema: string) {
  const pool = new pg.Pool({ connectionString: TEST_URL, max: 2 });
  closing.push(() => pool.end());
  const quoted = `"${schema}"`;
  const tables: Tables = {
    memories: `${quoted}.memories`,
    vectors: `${quoted}.memory_vectors`,
    namespaceStats: `${quoted}.namespace_stats`,
    relations: `${quoted}.memory_relations`,
    usageEvents: `${quoted}.usage_events`,
    usageRecords: `${quoted}.usage_records`,
  };
  // A fresh cache of ANALYZE's lexeme shares per call: each call sees the statistics of now.
  return (namespace: string, terms: QueryTerm[]) =>
    namespaceStatistics(new Database(pool, 40), tables, new LexemeShares(), namespace, terms);
}

const term = (text: string, prefix = false): QueryTerm => ({ text, prefix, stop: false });

async function exactCount(schema: string, namespace: string, lexeme: string): Promise<number> {
  const rows = await admin<{ n: string }>(
    `SELECT count(*) AS n FROM "${schema}".memories WHERE namespace = $1 AND search @@ $2::tsquery`,
    [namespace, `'${lexeme}'`],
  );
  return Number(rows[0]!.n);
}

describe("postgres: a term's document frequency past the exact-count cap", () => {
  it("is counted exactly below the cap and estimated from ANALYZE's statistics above it", async () => {
    const memory = await filled({ default: SIZE });
    const count = statistics(memory.schema);
    const stats = await count("default", [term("egretq"), term("heronq"), term("ploverq")]);
    expect(stats.documents).toBe(SIZE);
    expect(stats.documentFrequency[0]).toBe(10);
    // Every entry holds ploverq: the sample says so exactly.
    expect(stats.documentFrequency[2]).toBe(SIZE);
    // heronq (1,000 of 3,000) reaches the cap; ANALYZE sampled the whole table here, so the
    // estimate is exact too, but it did not come from a count past the cap.
    expect(stats.documentFrequency[1]).toBe(await exactCount(memory.schema, "default", "heronq"));

    // 600 more entries holding heronq, too few to analyze again: the estimate is the share
    // ANALYZE saw (1 in 3) of the namespace's 3,600 entries, not the 1,600 a count finds.
    await memory.importEntries(
      Array.from({ length: 600 }, (_, i) => ({ key: `more${i}`, content: "heronq again" })),
    );
    const after = await count("default", [term("egretq"), term("heronq")]);
    expect(await exactCount(memory.schema, "default", "heronq")).toBe(1600);
    expect(after.documentFrequency).toEqual([10, (SIZE + 600) / 3]);
    expect(EXACT_FREQUENCY_CAP).toBeLessThan(1600);
  });

  it("counts a term exactly when no estimate exists (no statistics, a prefix term)", async () => {
    const memory = await filled({ default: SIZE });
    const count = statistics(memory.schema);
    // Statistics gone (as after a restore by a role that cannot analyze): counted in full.
    await admin(`DELETE FROM pg_statistic WHERE starelid = to_regclass($1)`, [
      `"${memory.schema}".memories`,
    ]);
    const stats = await count("default", [term("ploverq"), term("heron", true)]);
    expect(stats.documentFrequency).toEqual([SIZE, SIZE / 3]);
  });

  it("counts exactly in a namespace that holds a small share of the table", async () => {
    const memory = await filled({ big: SIZE, small: 1500 });
    const count = statistics(memory.schema);
    const stats = await count("small", [term("ploverq"), term("heronq")]);
    expect(stats.documentFrequency).toEqual([1500, 500]);
  });
});
