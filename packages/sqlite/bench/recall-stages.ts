/**
 * pnpm --filter @memory/sqlite bench:stages [-- --size 10000]
 *
 * What each recall step after fusion costs: hybrid recall on a 10k-entry store of conversation
 * turns (sessions of 20, speaker labels, a question every fourth turn), with every option of
 * docs/retrieval-quality.md off, each alone on, and the shipped defaults. All configurations
 * read the same file in the same run, interleaved query by query so machine load hits them
 * alike; the ratios to "all off" are the result (absolute numbers move with the machine).
 */
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import type { EmbeddingProvider, RetrievalSettings } from "@memory/api";
import { createSqliteMemory } from "../src/index.js";
import { clusteredVectors, ZipfText } from "./dataset.js";

const DIMS = 384;
const QUERIES = 300;
const args = process.argv.slice(2);
const size = args.includes("--size") ? Number(args[args.indexOf("--size") + 1]) : 10_000;

const OFF: Partial<RetrievalSettings> = {
  contextNeighborWeight: 0,
  contextSessionWeight: 0,
  questionEntryPenalty: 0,
  temporalBoost: 0,
  speakerBoost: 0,
};
const CONFIGURATIONS: [string, Partial<RetrievalSettings>][] = [
  ["all off (fusion only)", OFF],
  [
    "+ question/time/speaker factors",
    { ...OFF, questionEntryPenalty: 0.2, temporalBoost: 0.2, speakerBoost: 0.2 },
  ],
  ["+ session context", { ...OFF, contextSessionWeight: 0.5 }],
  ["+ neighbour context", { ...OFF, contextNeighborWeight: 0.2 }],
  ["shipped defaults", {}],
];

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
};

const speakers = ["Ann", "Bo", "Cy", "Di"];
const vectors = clusteredVectors(size + QUERIES, DIMS, 64, 3);
const text = new ZipfText(30_000, 4);
const contents = Array.from({ length: size }, (_, i) => {
  const words = text.sentence(8, 30);
  return `${speakers[i % speakers.length]}: ${words}${i % 4 === 3 ? "?" : "."}`;
});
const queries = Array.from({ length: QUERIES }, (_, i) =>
  i % 3 === 0
    ? `When did ${speakers[i % 4]} ${text.sentence(2, 4)}?`
    : `What ${text.sentence(3, 5)}?`,
);
const table = new Map<string, Float32Array>();
for (const [i, content] of contents.entries()) table.set(content, vectors[i]!);
for (const [i, query] of queries.entries()) table.set(query, vectors[size + i]!);
const embedder: EmbeddingProvider = {
  name: "bench",
  model: "lookup",
  dimensions: DIMS,
  fingerprint: `bench:lookup:${DIMS}`,
  embed: async (texts) => texts.map((t) => Array.from(table.get(t)!)),
  embedOne: async (t) => Array.from(table.get(t)!),
};

const path = join(tmpdir(), `memory-bench-stages-${process.pid}.db`);
const writer = createSqliteMemory({ path, embedder, logger: () => {} });
const start = Date.parse("2024-01-01T00:00:00.000Z");
await writer.importEntries(
  contents.map((content, i) => ({
    key: `turn-${i}`,
    content,
    sessionId: `session-${Math.floor(i / 20)}`,
    category: "core",
    createdAt: new Date(start + i * 1000).toISOString(),
    embedding: Array.from(vectors[i]!),
  })),
);
await writer.close();

const memories = CONFIGURATIONS.map(([, settings]) =>
  createSqliteMemory({ path, embedder, recallCacheSize: 0, logger: () => {}, ...settings }),
);
// Warm-up: vector index loaded, statements prepared.
for (const memory of memories)
  for (const query of queries.slice(0, 20)) await memory.recall(query, { limit: 10, minScore: 0 });
const latencies = memories.map(() => [] as number[]);
for (let round = 0; round < 3; round++) {
  for (const query of queries) {
    for (let c = 0; c < memories.length; c++) {
      const begin = performance.now();
      await memories[c]!.recall(query, { limit: 10, minScore: 0 });
      latencies[c]!.push(performance.now() - begin);
    }
  }
}
for (const memory of memories) await memory.close();

const base = percentile(latencies[0]!, 50);
console.log(
  `hybrid recall, ${size} turns in sessions of 20, limit 10, ${QUERIES} x 3 queries, ${cpus().length} cores, Node ${process.version}`,
);
console.log("| configuration | p50 ms | p95 ms | p50 / all off |\n|---|---|---|---|");
CONFIGURATIONS.forEach(([name], c) => {
  const p50 = percentile(latencies[c]!, 50);
  console.log(
    `| ${name} | ${p50.toFixed(2)} | ${percentile(latencies[c]!, 95).toFixed(2)} | ${(p50 / base).toFixed(2)}x |`,
  );
});
