/**
 * Benchmark of @memory/postgres (not a test): bulk import rate, then recall latency for bm25,
 * embedding (HNSW, with recall@10 against an exact scan) and hybrid.
 *
 *   pnpm --filter @memory/postgres bench -- --size 100000
 *   MEMORY_BENCH_POSTGRES_URL=postgresql://... tsx bench/bench.ts --size 1000000 --ef-search 100
 *
 * Data: `clusters` Gaussian clusters in `dims` dimensions (a mixture of Gaussians, L2-normalized),
 * each with its own topic words, so keyword and vector relevance agree the way real notes do.
 */

import { execFileSync } from "node:child_process";
import { type EmbeddingProvider, embeddingFingerprint, type ImportEntry } from "@memory/api";
import { l2Normalize } from "@memory/core";
import { gaussian, seededRandom } from "@memory/testkit";
import pg from "pg";
import { createPostgresMemory } from "../src/index.js";
import { encodeVector } from "../src/sql.js";

interface Args {
  size: number;
  queries: number;
  exactQueries: number;
  dims: number;
  clusters: number;
  efSearch: number;
  m: number;
  efConstruction: number;
  buildMemoryMb: number;
  keep: boolean;
  reuse: boolean;
  schema: string;
  url: string;
  /** Create a dedicated, tuned cluster (as root, Debian's postgresql-common) and drop it after. */
  cluster: boolean;
  keepCluster: boolean;
  /** Generate entries while importing (the generator's time then counts as import time). */
  generateInline: boolean;
  port: number;
  sharedBuffers: string;
}

function parseArgs(argv: string[]): Args {
  const args: Args = {
    size: 100_000,
    queries: 300,
    exactQueries: 100,
    dims: 384,
    clusters: 256,
    efSearch: 200,
    m: 16,
    efConstruction: 64,
    buildMemoryMb: 1024,
    keep: false,
    reuse: false,
    schema: "",
    url: "",
    cluster: false,
    keepCluster: false,
    generateInline: false,
    port: 5433,
    sharedBuffers: "6GB",
  };
  const flags = new Set(["keep", "reuse", "cluster", "keepCluster", "generateInline"]);
  const strings = new Set(["schema", "url", "sharedBuffers"]);
  for (let i = 0; i < argv.length; i++) {
    const name = argv[i]!.replace(/^--/, "").replace(/-(\w)/g, (_, c: string) => c.toUpperCase());
    if (!(name in args)) throw new Error(`unknown option ${argv[i]}`);
    if (flags.has(name)) {
      (args as unknown as Record<string, unknown>)[name] = true;
      continue;
    }
    const value = argv[++i]!;
    (args as unknown as Record<string, unknown>)[name] = strings.has(name) ? value : Number(value);
  }
  args.schema ||= `bench_${args.size}`;
  return args;
}

const random = seededRandom;

const SYLLABLES = [
  "ka",
  "lo",
  "mi",
  "ne",
  "ru",
  "sa",
  "ti",
  "vo",
  "ze",
  "pa",
  "do",
  "fi",
  "gu",
  "ha",
  "je",
  "bo",
];

function word(n: number): string {
  let out = "";
  let value = n + 17;
  do {
    out += SYLLABLES[value % SYLLABLES.length];
    value = Math.floor(value / SYLLABLES.length);
  } while (value > 0);
  return out;
}

// Real sentence embeddings have a low intrinsic dimension: they vary along a few dozen
// directions, not 384 independent ones. So the mixture of Gaussians lives in a 16-dimensional
// latent space (256 clusters), is mapped to 384 dimensions by a fixed random matrix, and gets a
// little isotropic noise. (Isotropic 384-d clusters make every in-cluster neighbour a near-tie,
// which no ANN index, and no real embedder, produces.)
const LATENT = 16;

class Corpus {
  readonly centers: Float64Array[] = [];
  readonly topics: string[][] = [];
  readonly common: string[] = [];
  readonly projection: Float64Array;

  constructor(readonly args: Args) {
    const next = random(42);
    this.projection = Float64Array.from({ length: args.dims * LATENT }, () => gaussian(next));
    for (let c = 0; c < args.clusters; c++) {
      this.centers.push(Float64Array.from({ length: LATENT }, () => gaussian(next)));
      this.topics.push(Array.from({ length: 40 }, (_, i) => word(1000 + c * 40 + i)));
    }
    for (let i = 0; i < 300; i++) this.common.push(word(i));
  }

  /** A point of cluster `c`: latent center + noise (sigma 0.35), projected, + noise (0.05), normalized. */
  vector(c: number, next: () => number): number[] {
    const center = this.centers[c]!;
    const latent = Array.from(center, (value) => value + 0.35 * gaussian(next));
    const out = new Array<number>(this.args.dims);
    for (let d = 0; d < this.args.dims; d++) {
      let sum = 0;
      const row = d * LATENT;
      for (let j = 0; j < LATENT; j++) sum += this.projection[row + j]! * latent[j]!;
      out[d] = sum / Math.sqrt(LATENT) + 0.05 * gaussian(next);
    }
    return l2Normalize(out);
  }

  text(c: number, next: () => number): string {
    const topic = this.topics[c]!;
    const words: string[] = [];
    for (let i = 0; i < 6; i++) words.push(topic[Math.floor(next() ** 2 * topic.length)]!);
    for (let i = 0; i < 6; i++) words.push(this.common[Math.floor(next() * this.common.length)]!);
    return words.join(" ");
  }

  async *entries(): AsyncGenerator<ImportEntry> {
    const next = random(7);
    const created = Date.parse("2026-01-01T00:00:00.000Z");
    for (let i = 0; i < this.args.size; i++) {
      const c = Math.floor(next() * this.args.clusters);
      const at = new Date(created + i * 1000).toISOString();
      yield {
        key: `note-${i}`,
        content: this.text(c, next),
        category: "core",
        embedding: this.vector(c, next),
        createdAt: at,
        updatedAt: at,
      };
    }
  }

  /**
   * The same entries as {@link entries}, generated up front into compact storage (vectors as one
   * Float32Array), so the timed import measures the library and the server, not this generator
   * (about 40-80 us per entry here, as much as the import itself).
   */
  pregenerate(): () => AsyncGenerator<ImportEntry> {
    const { size, dims } = this.args;
    const vectors = new Float32Array(size * dims);
    const texts: string[] = new Array(size);
    const next = random(7);
    for (let i = 0; i < size; i++) {
      const c = Math.floor(next() * this.args.clusters);
      texts[i] = this.text(c, next);
      vectors.set(this.vector(c, next), i * dims);
    }
    const created = Date.parse("2026-01-01T00:00:00.000Z");
    return async function* () {
      for (let i = 0; i < size; i++) {
        const at = new Date(created + i * 1000).toISOString();
        yield {
          key: `note-${i}`,
          content: texts[i]!,
          category: "core",
          embedding: Array.from(vectors.subarray(i * dims, (i + 1) * dims)),
          createdAt: at,
          updatedAt: at,
        };
      }
    };
  }

  queries(count: number): { text: string; vector: number[] }[] {
    const next = random(99);
    return Array.from({ length: count }, () => {
      const c = Math.floor(next() * this.args.clusters);
      const topic = this.topics[c]!;
      const text = `${topic[Math.floor(next() * 10)]} ${topic[Math.floor(next() * 10)]} ${this.common[Math.floor(next() * 300)]}`;
      return { text, vector: this.vector(c, next) };
    });
  }
}

/** Hands out the benchmark's precomputed query vectors; documents come with their embedding. */
function lookupEmbedder(dims: number, vectors: Map<string, number[]>): EmbeddingProvider {
  return {
    name: "bench",
    model: "gaussian-mixture",
    dimensions: dims,
    fingerprint: embeddingFingerprint("bench", "gaussian-mixture", dims),
    async embed(texts) {
      return texts.map((text) => {
        const vector = vectors.get(text);
        if (!vector) throw new Error(`no benchmark vector for ${JSON.stringify(text)}`);
        return vector;
      });
    },
    async embedOne(text) {
      return (await this.embed([text]))[0]!;
    },
  };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function timeQueries(run: (index: number) => Promise<unknown>, count: number) {
  for (let i = 0; i < Math.min(20, count); i++) await run(i); // warm-up: plans, caches
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const start = performance.now();
    await run(i);
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return {
    p50: percentile(times, 50),
    p95: percentile(times, 95),
    p99: percentile(times, 99),
    mean: times.reduce((a, b) => a + b, 0) / times.length,
  };
}

// The dedicated benchmark cluster: PostgreSQL settings a production server of this size would
// have (the machine has 24 GB), instead of the defaults of the shared test server.
const CLUSTER = "membench";
function clusterSettings(args: Args): Record<string, string> {
  return {
    shared_buffers: args.sharedBuffers,
    maintenance_work_mem: "4GB",
    max_parallel_maintenance_workers: "2",
    work_mem: "64MB",
    effective_cache_size: "16GB",
    synchronous_commit: "off",
    max_wal_size: "8GB",
    checkpoint_timeout: "30min",
  };
}

function run(command: string, argv: string[], options: { user?: string } = {}): string {
  const full = options.user ? ["-u", options.user, "--", command, ...argv] : argv;
  return execFileSync(options.user ? "runuser" : command, full, { encoding: "utf8" });
}

/** Creates, configures and starts the cluster; returns its URL. Needs root and postgresql-common. */
function createCluster(args: Args): string {
  const version = "15";
  const existing = run("pg_lsclusters", ["-h"]);
  if (existing.split("\n").some((line) => line.split(/\s+/)[1] === CLUSTER))
    run("pg_dropcluster", ["--stop", version, CLUSTER]);
  run("pg_createcluster", [version, CLUSTER, "-p", String(args.port), "--", "--auth=trust"]);
  for (const [name, value] of Object.entries(clusterSettings(args)))
    run("pg_conftool", [version, CLUSTER, "set", name, value]);
  run("pg_ctlcluster", ["--skip-systemctl-redirect", version, CLUSTER, "start"]);
  run("psql", ["-p", String(args.port), "-qc", "CREATE EXTENSION vector"], { user: "postgres" });
  return `postgresql://postgres@127.0.0.1:${args.port}/postgres`;
}

function dropCluster(): void {
  run("pg_dropcluster", ["--stop", "15", CLUSTER]);
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  let url =
    args.url ||
    process.env.MEMORY_BENCH_POSTGRES_URL ||
    process.env.MEMORY_TEST_POSTGRES_URL ||
    "postgresql://postgres@127.0.0.1:5432/memory_test";
  try {
    if (args.cluster) {
      if (!args.keepCluster) process.on("exit", dropCluster);
      url = createCluster(args);
      console.error(`created cluster 15/${CLUSTER} on port ${args.port}`);
    }
    await bench(args, url);
  } finally {
    if (args.cluster && !args.keepCluster) {
      process.removeListener("exit", dropCluster);
      dropCluster();
      console.error(`dropped cluster 15/${CLUSTER}`);
    }
  }
}

async function bench(args: Args, url: string): Promise<void> {
  const corpus = new Corpus(args);
  const queries = corpus.queries(args.queries);
  const embedder = lookupEmbedder(
    args.dims,
    new Map(queries.map((query) => [query.text, query.vector])),
  );
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  // --reuse keeps a schema imported by an earlier --keep run and measures recall only.
  const existing = await admin.query("SELECT to_regclass($1) IS NOT NULL AS present", [
    `"${args.schema}".memories`,
  ]);
  const reuse = args.reuse && existing.rows[0].present;
  if (!reuse) await admin.query(`DROP SCHEMA IF EXISTS "${args.schema}" CASCADE`);
  const memory = createPostgresMemory({
    connectionString: url,
    schema: args.schema,
    embedder,
    hnsw: {
      m: args.m,
      efConstruction: args.efConstruction,
      efSearch: args.efSearch,
      buildMemoryMb: args.buildMemoryMb,
    },
    // Every result counts (recall@10 compares ids with an exact scan), and hybrid always runs
    // both stages.
    ftsEarlyReturnScore: 1,
    minScore: 0,
  });
  const result: Record<string, unknown> = { args, node: process.version };
  const settings = await admin.query<{ name: string; setting: string; unit: string | null }>(
    `SELECT name, setting, unit FROM pg_settings WHERE name = ANY($1::text[])`,
    [Object.keys(clusterSettings(args))],
  );
  result.server = {
    version: (await admin.query("SHOW server_version")).rows[0].server_version,
    ...Object.fromEntries(
      settings.rows.map((row) => [row.name, `${row.setting}${row.unit ? ` ${row.unit}` : ""}`]),
    ),
  };
  try {
    if (!reuse) await importCorpus();
    await measureRecall();
    console.log(JSON.stringify(result, null, 2));
  } finally {
    await memory.close();
    if (!args.keep) await admin.query(`DROP SCHEMA IF EXISTS "${args.schema}" CASCADE`);
    await admin.end();
  }

  async function importCorpus(): Promise<void> {
    const generated = performance.now();
    const source = args.generateInline ? () => corpus.entries() : corpus.pregenerate();
    if (!args.generateInline)
      console.error(
        `generated ${args.size} entries in ${((performance.now() - generated) / 1000).toFixed(1)} s`,
      );
    const started = performance.now();
    let lastLog = started;
    let loaded = started;
    const report = await memory.importEntries(source(), {
      onProgress: ({ done }) => {
        loaded = performance.now();
        if (performance.now() - lastLog > 10_000) {
          lastLog = performance.now();
          console.error(
            `  imported ${done} (${Math.round(done / ((lastLog - started) / 1000))} rows/s)`,
          );
        }
      },
    });
    const importSeconds = (performance.now() - started) / 1000;
    if (report.rejected.length > 0)
      throw new Error(`rejected ${report.rejected.length}: ${report.rejected[0]?.message}`);
    // The last progress report comes when the last row is written; the rest is the one HNSW
    // build that a bulk import into an empty store does at the end.
    const loadSeconds = (loaded - started) / 1000;
    result.import = {
      rows: report.imported,
      loadSeconds,
      loadRowsPerSecond: report.imported / loadSeconds,
      indexBuildSeconds: importSeconds - loadSeconds,
      totalSeconds: importSeconds,
      totalRowsPerSecond: report.imported / importSeconds,
    };
    console.error(
      `import: ${report.imported} rows in ${importSeconds.toFixed(1)} s (load ${loadSeconds.toFixed(1)} s)`,
    );
    await admin.query(`ANALYZE "${args.schema}".memories`);
    await admin.query(`ANALYZE "${args.schema}".memory_vectors`);
    const size = await admin.query(
      `SELECT pg_size_pretty(pg_total_relation_size('"${args.schema}".memories')) AS memories,
              pg_size_pretty(pg_total_relation_size('"${args.schema}".memory_vectors')) AS vectors`,
    );
    result.size = size.rows[0];
  }

  async function measureRecall(): Promise<void> {
    const limit = 10;
    result.bm25 = await timeQueries(
      (i) => memory.recall(queries[i]!.text, { mode: "bm25", limit }),
      args.queries,
    );
    // The same queries again on a second instance with the hot cache off, after one untimed
    // pass: every term's statistics are then known (kept against the change token), so this is
    // what a recall costs when its terms were counted before; `bm25` counts each new term.
    const warm = createPostgresMemory({
      connectionString: url,
      schema: args.schema,
      embedder,
      recallCacheSize: 0,
      minScore: 0,
    });
    try {
      for (const query of queries) await warm.recall(query.text, { mode: "bm25", limit });
      result.bm25Warm = await timeQueries(
        (i) => warm.recall(queries[i]!.text, { mode: "bm25", limit }),
        args.queries,
      );
    } finally {
      await warm.close();
    }
    result.embedding = await timeQueries(
      (i) => memory.recall(queries[i]!.text, { mode: "embedding", limit }),
      args.queries,
    );
    // The keyword and the vector stage go out at once on two connections.
    result.hybrid = await timeQueries(
      (i) => memory.recall(queries[i]!.text, { mode: "hybrid", limit }),
      args.queries,
    );

    // recall@10 of the HNSW path against an exact scan (sequential, index scans disabled).
    await admin.query("SET enable_indexscan = off");
    await admin.query("SET max_parallel_workers_per_gather = 2");
    let found = 0;
    const exactCount = Math.min(args.exactQueries, queries.length);
    for (let i = 0; i < exactCount; i++) {
      const query = queries[i]!;
      const exact = await admin.query<{ id: string }>(
        `SELECT memory_id AS id FROM "${args.schema}".memory_vectors ORDER BY embedding <=> $1::vector LIMIT ${limit}`,
        [encodeVector(query.vector)],
      );
      const approximate = new Set(
        (await memory.recall(query.text, { mode: "embedding", limit })).map((entry) => entry.id),
      );
      found += exact.rows.filter((row) => approximate.has(row.id)).length;
    }
    result.recallAt10 = found / (exactCount * limit);
    // The client's own peak memory: at 1M the pregenerated corpus alone is ~1.5 GB of vectors.
    result.clientMaxRssMb = Math.round(process.resourceUsage().maxRSS / 1024);
  }
}

await main();
