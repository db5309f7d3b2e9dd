/**
 * pnpm --filter @memory/markdown bench:stores [-- --entries 10000 --stores 300 --concurrency 16 --writers 1]
 *
 * Not a test: what a store costs as the day's file grows, the way the server benchmark fills
 * a tree (apps/server/bench/throughput-bench.ts): `entries` rows imported without dates, so all
 * of them land in today's daily file, 1,000 per `importEntries` call (one `POST /v1/import`
 * each); then `stores` new daily entries stored by `concurrency` callers at once, with the index
 * and the watcher on (what `memory serve` runs), keyword-only. `--writers 2`: the stores take
 * turns between two instances over the tree (as two server workers do; each must take in the
 * other's appends). Prints import rows/s, stores/s, store p50/p99 and the size of today's file.
 */
import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { seededRandom } from "@memory/testkit";
import { createMarkdownMemory } from "../src/index.js";

const args = process.argv.slice(2);
const option = (name: string, fallback: number) =>
  args.includes(`--${name}`) ? Number(args[args.indexOf(`--${name}`) + 1]) : fallback;
const ENTRIES = option("entries", 10_000);
const STORES = option("stores", 300);
const CONCURRENCY = option("concurrency", 16);
const WRITERS = option("writers", 1);

const random = seededRandom(7);
const WORDS = Array.from({ length: 2000 }, (_, i) => `w${i.toString(36)}`);
const sentence = (n: number) =>
  Array.from({ length: n }, () => WORDS[Math.floor(WORDS.length * random() ** 2)]!).join(" ");

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
};

const root = mkdtempSync(join(tmpdir(), "md-store-scaling-"));
try {
  const memory = createMarkdownMemory({ root, watch: true, logger: () => {} });
  const importStarted = performance.now();
  for (let start = 0; start < ENTRIES; start += 1000) {
    const rows = Array.from({ length: Math.min(1000, ENTRIES - start) }, (_, i) => ({
      key: `seed-${start + i}`,
      content: sentence(12 + ((start + i) % 20)),
      category: "daily",
    }));
    await memory.importEntries(rows);
  }
  const importSeconds = (performance.now() - importStarted) / 1000;
  const writers = [memory];
  for (let i = 1; i < WRITERS; i++) {
    const other = createMarkdownMemory({ root, watch: true, logger: () => {} });
    await other.list({ limit: 1 });
    writers.push(other);
  }
  const times: number[] = [];
  let next = 0;
  const storesStarted = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < STORES) {
        const i = next++;
        const started = performance.now();
        const writer = writers[i % writers.length] ?? memory;
        await writer.store({ key: `new-${i}`, content: sentence(16), category: "daily" });
        times.push(performance.now() - started);
      }
    }),
  );
  const storeSeconds = (performance.now() - storesStarted) / 1000;
  const dir = join(root, "memory");
  const files = readdirSync(dir).filter((name) => name.endsWith(".md"));
  const bytes = files.reduce((sum, name) => sum + statSync(join(dir, name)).size, 0);
  console.log(
    JSON.stringify({
      entries: ENTRIES,
      importRowsPerSecond: Math.round(ENTRIES / importSeconds),
      stores: STORES,
      concurrency: CONCURRENCY,
      writers: WRITERS,
      storesPerSecond: Number((STORES / storeSeconds).toFixed(1)),
      storeP50Ms: Number(percentile(times, 50).toFixed(1)),
      storeP99Ms: Number(percentile(times, 99).toFixed(1)),
      dailyFiles: files.length,
      dailyMegabytes: Number((bytes / 1e6).toFixed(1)),
      load: loadavg()[0]?.toFixed(2),
    }),
  );
  for (const writer of writers) await writer.close();
} finally {
  rmSync(root, { recursive: true, force: true });
}
