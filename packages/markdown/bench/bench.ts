/**
 * pnpm --filter @memory/markdown bench [-- --files 1000 --entries 10000]
 *
 * Not a test: numbers for the README. Measures, on generated data (seeded, so runs compare):
 * - open + full index of a tree of `files` files / `entries` entries (index built from scratch);
 * - incremental re-index after one file is edited outside the library;
 * - store and forget p50 on a 1,000-entry daily file (with and without the index);
 * - recall p50 (bm25) against the SQLite backend on the same entries.
 */
import { appendFileSync, mkdtempSync, rmSync } from "node:fs";
import { cpus, tmpdir, totalmem } from "node:os";
import { join } from "node:path";
import type { ImportEntry, Memory } from "@memory/api";
import { createSqliteMemory } from "@memory/sqlite";
import { seededRandom } from "@memory/testkit";
import { createMarkdownMemory } from "../src/index.js";

const args = process.argv.slice(2);
const option = (name: string, fallback: number) =>
  args.includes(`--${name}`) ? Number(args[args.indexOf(`--${name}`) + 1]) : fallback;
const FILES = option("files", 1000);
const ENTRIES = option("entries", 10_000);
const QUERIES = option("queries", 200);
const OPS = option("ops", 200);

const random = seededRandom(12);
const WORDS = Array.from({ length: 3000 }, (_, i) => `w${i.toString(36)}`);
// Zipf-like word choice: a few common words, a long tail.
const word = () => WORDS[Math.floor(WORDS.length * random() ** 2.5)]!;
const sentence = (n: number) => Array.from({ length: n }, word).join(" ");

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
};
const ms = (value: number) => (value < 10 ? value.toFixed(2) : value.toFixed(0));
async function time<T>(body: () => Promise<T>): Promise<[number, T]> {
  const start = performance.now();
  const result = await body();
  return [performance.now() - start, result];
}

/** `ENTRIES` entries spread over `FILES` files: MEMORY.md, daily files, custom categories. */
function dataset(): ImportEntry[] {
  const customFiles = Math.max(1, Math.floor(FILES / 10));
  const dailyFiles = Math.max(1, FILES - customFiles - 1);
  const day0 = Date.UTC(2024, 0, 1);
  return Array.from({ length: ENTRIES }, (_, i) => {
    const slot = i % FILES;
    const at = new Date(day0 + (slot % dailyFiles) * 86_400_000 + i).toISOString();
    const category =
      slot === 0
        ? "core"
        : slot <= customFiles
          ? `topic-${slot}`
          : i % 3
            ? "daily"
            : "conversation";
    return {
      key: `entry-${i}`,
      content: sentence(8 + Math.floor(random() * 24)),
      category,
      createdAt: at,
      updatedAt: at,
    };
  });
}

async function recallP50(memory: Memory, queries: string[]): Promise<number> {
  for (const query of queries.slice(0, 10)) await memory.recall(query, { mode: "bm25" }); // warm
  const times: number[] = [];
  for (const query of queries) {
    const [elapsed] = await time(() => memory.recall(query, { mode: "bm25", limit: 5 }));
    times.push(elapsed);
  }
  return percentile(times, 50);
}

const lines: string[] = [];
const report = (line: string) => {
  lines.push(line);
  console.log(line);
};

const base = mkdtempSync(join(tmpdir(), "memory-markdown-bench-"));
try {
  const entries = dataset();
  const queries = Array.from({ length: QUERIES }, () => sentence(3));

  // -- a tree of FILES files / ENTRIES entries, written without the index.
  const root = join(base, "tree");
  const writer = createMarkdownMemory({ root, index: false, logger: () => {} });
  const [writeMs] = await time(() => writer.importEntries(entries));
  const files = writer.tree.files.size;
  await writer.close();
  report(
    `tree: ${files} files, ${ENTRIES} entries written (import, no index) in ${ms(writeMs)} ms`,
  );

  // -- open + full index from scratch.
  const indexed = createMarkdownMemory({ root, logger: () => {} });
  const [indexMs] = await time(() => indexed.count());
  report(`open + full index (no embedder): ${ms(indexMs)} ms`);
  const [reopenMs] = await time(async () => {
    const again = createMarkdownMemory({ root, logger: () => {} });
    await again.count();
    await again.close();
  });
  report(`open of an indexed tree (nothing changed): ${ms(reopenMs)} ms`);

  // -- incremental re-index of one edited file.
  const edited = [...indexed.tree.files.keys()].find((path) => path.startsWith("memory/2024"))!;
  const reindexTimes: number[] = [];
  for (let i = 0; i < 20; i++) {
    appendFileSync(join(root, edited), `\nA note added by hand ${i}: ${sentence(12)}\n`);
    const [elapsed] = await time(() => indexed.recall("note added by hand", { mode: "bm25" }));
    reindexTimes.push(elapsed);
  }
  report(
    `incremental re-index of one edited file (${edited}) + recall: p50 ${ms(percentile(reindexTimes, 50))} ms`,
  );

  // -- recall against SQLite on the same entries.
  const sqlite = createSqliteMemory({ path: join(base, "brain.db"), logger: () => {} });
  await sqlite.importEntries(entries);
  const sqliteP50 = await recallP50(sqlite, queries);
  const markdownP50 = await recallP50(indexed, queries);
  const watched = createMarkdownMemory({ root, watch: true, logger: () => {} });
  const watchedP50 = await recallP50(watched, queries);
  const plain = createMarkdownMemory({ root, index: false, logger: () => {} });
  const plainP50 = await recallP50(plain, queries);
  report(
    `recall p50 (bm25, limit 5, ${QUERIES} queries): sqlite ${ms(sqliteP50)} ms; markdown with index ${ms(markdownP50)} ms (${(markdownP50 / sqliteP50).toFixed(2)}x; every file checked per call), with index + watcher ${ms(watchedP50)} ms (${(watchedP50 / sqliteP50).toFixed(2)}x), without index ${ms(plainP50)} ms`,
  );
  await Promise.all([sqlite.close(), indexed.close(), watched.close(), plain.close()]);

  // -- store and forget on a 1,000-entry daily file (today's: store writes there).
  for (const index of [false, true]) {
    const dailyRoot = join(base, `daily-${index}`);
    const now = new Date().toISOString();
    const seed = createMarkdownMemory({ root: dailyRoot, index, logger: () => {} });
    await seed.importEntries(
      Array.from({ length: 1000 }, (_, i) => ({
        key: `d-${i}`,
        content: sentence(20),
        category: "daily",
        createdAt: now,
        updatedAt: now,
      })),
    );
    const stores: number[] = [];
    const forgets: number[] = [];
    for (let i = 0; i < OPS; i++) {
      const [elapsed] = await time(() =>
        seed.store({ key: `new-${i}`, content: sentence(20), category: "daily" }),
      );
      stores.push(elapsed);
    }
    for (let i = 0; i < OPS; i++) {
      const [elapsed] = await time(() => seed.forget(`d-${i * 3}`));
      forgets.push(elapsed);
    }
    report(
      `1,000-entry daily file, index ${index ? "on" : "off"}: store p50 ${ms(percentile(stores, 50))} ms, forget p50 ${ms(percentile(forgets, 50))} ms (${OPS} each)`,
    );
    await seed.close();
  }
  report(
    `machine: ${cpus().length} x ${cpus()[0]?.model ?? "cpu"}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`,
  );
} finally {
  rmSync(base, { recursive: true, force: true });
}
