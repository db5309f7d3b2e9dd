/**
 * Benchmark (not a test): what a common query term adds to a keyword recall. One namespace of
 * `size` entries, each holding the word "plover" and four words from a vocabulary of 20,000;
 * recall p50 of a query of two rare words, and of the same query plus "plover" (in every entry:
 * it selects nothing, issue 29's case of a term counted over the whole namespace on every recall).
 *
 *   tsx bench/common-term.ts [--size 50000] [--queries 200] [--keep] [--reuse] [--cold]
 *
 * `--cold`: before each timed recall (untimed) a store into another namespace changes the
 * schema's change token, so the recall counts its terms' statistics again: the cost of a
 * term's first use, and of every recall after a write.
 * Each timed pass follows one untimed pass over all queries. `--keep` leaves the schema `bench_common_<size>` for `--reuse` runs (e.g. before/after runs of
 * two checkouts on one data set). The hot cache is off, so every recall runs the keyword stage.
 */

import pg from "pg";
import { createPostgresMemory } from "../src/index.js";

const argv = process.argv.slice(2);
const option = (name: string, fallback: number) =>
  argv.includes(name) ? Number(argv[argv.indexOf(name) + 1]) : fallback;
const size = option("--size", 50_000);
const queryCount = option("--queries", 200);
const schema = `bench_common_${size}`;
const cold = argv.includes("--cold");
let writes = 0;
const url =
  process.env.MEMORY_BENCH_POSTGRES_URL ??
  process.env.MEMORY_TEST_POSTGRES_URL ??
  "postgresql://postgres@127.0.0.1:5432/memory_test";

const VOCABULARY = 20_000;
/** A deterministic made-up word per number (no stemming surprises: letters only, no suffixes). */
const word = (n: number) => `w${n.toString(36)}q`;
let seed = 7;
const next = () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
  return seed / 2 ** 31;
};

const admin = new pg.Client({ connectionString: url });
await admin.connect();
const present = (
  await admin.query("SELECT to_regclass($1) IS NOT NULL AS present", [`"${schema}".memories`])
).rows[0].present;
const reuse = argv.includes("--reuse") && present;
if (!reuse) await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
const memory = createPostgresMemory({ connectionString: url, schema, recallCacheSize: 0 });
try {
  if (!reuse) {
    const entries = Array.from({ length: size }, (_, i) => ({
      key: `note-${i}`,
      content: `plover ${Array.from({ length: 4 }, () => word(Math.floor(next() * VOCABULARY))).join(" ")}`,
    }));
    await memory.importEntries(entries);
    await admin.query(`ANALYZE "${schema}".memories`);
  }
  const rare = Array.from(
    { length: queryCount },
    () => `${word(Math.floor(next() * VOCABULARY))} ${word(Math.floor(next() * VOCABULARY))}`,
  );
  const common = rare.map((text) => `${text} plover`);
  // One untimed pass over every query first (plans, pages and, where kept, term statistics):
  // the timed passes compare the two kinds of query in one state.
  for (const text of [...rare, ...common]) await memory.recall(text, { mode: "bm25" });
  const time = async (texts: string[]) => {
    const times: number[] = [];
    for (const text of texts) {
      if (cold)
        await memory.store({ key: "write", content: `write ${writes++}`, namespace: "other" });
      const start = performance.now();
      await memory.recall(text, { mode: "bm25" });
      times.push(performance.now() - start);
    }
    times.sort((a, b) => a - b);
    return times[Math.floor(times.length / 2)]!;
  };
  const rareP50 = await time(rare);
  const commonP50 = await time(common);
  console.log(JSON.stringify({ size, queries: queryCount, cold, rareP50, commonP50 }));
} finally {
  await memory.close();
  if (!argv.includes("--keep")) await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await admin.end();
}
