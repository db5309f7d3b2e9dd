// Cost of relations (docs/relations.md) on SQLite, 10k entries, keyword-only: import with and
// without one outgoing edge per entry (half of them to a later entry, written at the end), recall
// with no edge in the store and with a `contradicts` edge on every entry (the one extra query of
// the contradiction rule), relations(key) and relate. Run: pnpm --filter @memory/sqlite bench:relations
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { ImportEntry } from "@memory/api";
import { createSqliteMemory } from "../src/index.js";

const ENTRIES = 10_000;
const SAMPLES = 1_000;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function measure(label: string, run: (i: number) => Promise<unknown>): Promise<void> {
  const times: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    const start = performance.now();
    await run(i);
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  const fmt = (ms: number) => `${(ms * 1000).toFixed(0)} µs`;
  console.log(
    `${label.padEnd(52)} p50 ${fmt(percentile(times, 50))}  p95 ${fmt(percentile(times, 95))}`,
  );
}

function entries(withEdges: boolean, type: string): ImportEntry[] {
  return Array.from({ length: ENTRIES }, (_, i) => {
    const entry: ImportEntry = {
      key: `fact-${i}`,
      content: `Fact number ${i} about the user and project ${i % 97}`,
      createdAt: new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString(),
    };
    // Even entries point back (the target is already in), odd ones forward (written at the end).
    const to = i % 2 === 0 ? (i + ENTRIES - 1) % ENTRIES : (i + 1) % ENTRIES;
    if (withEdges) entry.relations = [{ to: `fact-${to}`, type, weight: 0.5 }];
    return entry;
  });
}

for (const [label, withEdges, type] of [
  ["no relations", false, "follows"],
  ["one follows edge per entry", true, "follows"],
  ["one contradicts edge per entry", true, "contradicts"],
] as const) {
  const dir = mkdtempSync(path.join(tmpdir(), "memory-relations-bench-"));
  const memory = createSqliteMemory({ path: path.join(dir, "bench.db"), logger: () => {} });
  const start = performance.now();
  const report = await memory.importEntries(entries(withEdges, type));
  const seconds = (performance.now() - start) / 1000;
  console.log(
    `${label}: import of ${report.imported} entries and ${report.relations?.imported ?? 0} edges in ${seconds.toFixed(2)} s`,
  );
  await measure("recall (keyword, limit 5)", (i) =>
    memory.recall(`project ${i % 97} fact`, { mode: "bm25", minScore: 0 }),
  );
  if (withEdges) {
    await measure("relations(key), both directions", (i) => memory.relations(`fact-${i}`));
    await measure("relate (existing edge, stronger weight kept)", (i) =>
      memory.relate(`fact-${i}`, `fact-${(i + 1) % ENTRIES}`, "supports", { weight: 0.3 }),
    );
  }
  await memory.close();
  rmSync(dir, { recursive: true, force: true });
}
