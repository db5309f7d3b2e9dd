// Cost of keeping versions (docs/history.md): store latency on SQLite, 10k entries, keyword-only,
// for a new key, a same-key store with the same content, and a same-key store that changes the
// content (one extra read of the key and of its 100 version slots, one more upsert), and a
// forget (which reads the 100 slots to delete the key's versions with it), with
// history_versions = 20 and 0. Run: pnpm --filter @memory/sqlite bench:history
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createSqliteMemory } from "../src/index.js";

const ENTRIES = 10_000;
const SAMPLES = 2_000;

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
    `${label.padEnd(44)} p50 ${fmt(percentile(times, 50))}  p95 ${fmt(percentile(times, 95))}`,
  );
}

for (const historyVersions of [20, 0]) {
  const dir = mkdtempSync(path.join(tmpdir(), "memory-history-bench-"));
  const memory = createSqliteMemory({ path: path.join(dir, "bench.db"), historyVersions });
  await memory.importEntries(
    Array.from({ length: ENTRIES }, (_, i) => ({
      key: `fact-${i}`,
      content: `Fact number ${i} about the user and project ${i % 97}`,
    })),
  );
  console.log(`history_versions = ${historyVersions}, ${ENTRIES} entries`);
  await measure("store, new key", (i) =>
    memory.store({ key: `new-${i}`, content: `A new fact ${i}` }),
  );
  await measure("forget, a key without versions", (i) => memory.forget(`new-${i}`));
  await measure("store, same key, same content", (i) =>
    memory.store({
      key: `fact-${i}`,
      content: `Fact number ${i} about the user and project ${i % 97}`,
    }),
  );
  await measure("store, same key, new content", (i) =>
    memory.store({ key: `fact-${i % 100}`, content: `Changed fact ${i}` }),
  );
  await measure("history(key) with 20 versions", (i) => memory.history(`fact-${i % 100}`));
  await memory.close();
  rmSync(dir, { recursive: true, force: true });
}
