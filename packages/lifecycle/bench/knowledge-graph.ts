/**
 * Cost of the knowledge graph on a real SQLite file, keyword-only: `knowledgeGraph(entity)` and
 * the triple writing of one remembered fact (`writeTriples`, one new triple that closes an old
 * one), both of which scan the namespace's `triple` entries, at several store sizes.
 *
 *   pnpm --filter @memory/lifecycle bench:kg [-- 1000 10000]
 *
 * Prints, per size, the seeding time and the p50/p95 of each operation over 30 runs.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createSqliteMemory } from "@memory/sqlite";
import { knowledgeGraph, type TripleInput, writeTriples } from "../src/index.js";

const sizes = process.argv.slice(2).map(Number).filter(Boolean);
const RUNS = 30;
const PREDICATES = ["lives_in", "works_at", "likes", "friend", "owns"];

const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))]!;

async function timed(run: (index: number) => Promise<unknown>): Promise<number[]> {
  const times: number[] = [];
  for (let index = 0; index < RUNS; index++) {
    const start = performance.now();
    await run(index);
    times.push(performance.now() - start);
  }
  return times;
}

for (const size of sizes.length > 0 ? sizes : [1000, 10000]) {
  const dir = mkdtempSync(path.join(tmpdir(), "memory-kg-bench-"));
  const memory = createSqliteMemory({ path: path.join(dir, "brain.db") });
  await memory.store({ key: "source", content: "What the user said" });
  const day = (index: number) => new Date(Date.UTC(2025, 0, 1) + index * 60_000).toISOString();
  const inputs: TripleInput[] = Array.from({ length: size }, (_, index) => ({
    subject: `Person ${Math.floor(index / PREDICATES.length) % Math.max(1, size / 50)}`,
    predicate: PREDICATES[index % PREDICATES.length]!,
    object: `Thing ${index}`,
    sourceKey: "source",
    validFrom: day(index),
  }));
  const seedStart = performance.now();
  const seeded = await writeTriples(memory, inputs, {});
  const seedSeconds = (performance.now() - seedStart) / 1000;
  const read = await timed(() => knowledgeGraph(memory, "Person 3"));
  const write = await timed((index) =>
    writeTriples(
      memory,
      [
        {
          subject: "Person 3",
          predicate: "lives_in",
          object: `City ${index}`,
          sourceKey: "source",
          validFrom: day(size + index),
        },
      ],
      {},
    ),
  );
  const found = await knowledgeGraph(memory, "Person 3");
  console.log(
    `${size} triples (${seeded.stored.length} stored, ${seeded.closed.length} closed while seeding) in ${seedSeconds.toFixed(1)} s; ` +
      `knowledgeGraph p50 ${percentile(read, 0.5).toFixed(1)} ms p95 ${percentile(read, 0.95).toFixed(1)} ms (${found.triples.length} triples about person 3); ` +
      `writeTriples (1 new, 1 closed) p50 ${percentile(write, 0.5).toFixed(1)} ms p95 ${percentile(write, 0.95).toFixed(1)} ms`,
  );
  await memory.close();
  rmSync(dir, { recursive: true, force: true });
}
