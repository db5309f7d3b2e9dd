/**
 * Throughput benchmark, in one run: a reference server (reference-server.mjs: node:http + one
 * bare FTS5 query on SQLite, in 1 process and in N) against ours with 1 worker and N workers, on
 * each backend of BENCH_BACKENDS, on real conversational text (LoCoMo turns, questions as
 * queries) and on the synthetic set of server-bench.ts at each size of BENCH_ENTRIES; then the
 * resident memory of each worker with the `local` embedder (SQLite).
 *
 *   pnpm --filter @memory/server bench:throughput      (after building @memory/server)
 *   BENCH_BACKENDS=sqlite,postgres,markdown (default sqlite)  BENCH_ENTRIES=10000,100000
 *   BENCH_POSTGRES_URL=postgresql://...  (postgres: a fresh schema per run, dropped after;
 *   without it postgres is skipped)  BENCH_WORKERS=<n, default cores>  BENCH_REQUESTS=2000
 *   BENCH_MAX_SECONDS=<per operation, default none>  BENCH_CONCURRENCY=16  BENCH_WARM_UP=3000 (per process)
 *   BENCH_SETS=locomo,synthetic  BENCH_LOCOMO_FILE=...  BENCH_RSS=1
 *
 * For each set and size the reference server runs once; then, for each backend, a fresh store
 * is filled through `POST /v1/import` (timed) by ours with 1 worker, which is measured, then
 * the same store is served by N workers. Every server is a child process; this process only
 * generates load (keep-alive node:http), and it shares the machine's cores with the servers:
 * on a 2-core machine it costs the servers part of a core. Not a test: nothing is asserted.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { availableParallelism, cpus, loadavg, tmpdir } from "node:os";
import path from "node:path";
import { type BenchSet, locomoSet, syntheticSet } from "./bench-data.js";
import { importRows, reference as launchReference, ours } from "./bench-servers.js";
import { type Backend, benchStore, parseBackends, postgresUrl } from "./bench-stores.js";
import { type Call, type OperationResult, runOperation } from "./load.js";
import {
  type ImportRow,
  printImports,
  printRatios,
  printTable,
  type Row,
  referenceServer,
} from "./throughput-report.js";

const WORKERS = Number(process.env.BENCH_WORKERS ?? availableParallelism());
const SIZES = (process.env.BENCH_ENTRIES ?? "10000").split(",").map(Number);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 2000);
const MAX_SECONDS = Number(process.env.BENCH_MAX_SECONDS ?? Number.POSITIVE_INFINITY);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
// Recalls before the first measured request, per process. Each worker compiles its own code and
// fills its own caches: with 300 in all, two workers ran their measured recalls still
// half-compiled (V8's compiler threads took a share of the cores) and served 1.0-1.1x one
// worker where bench:scaling, warmed, saw 1.2-1.6x.
const WARM_UP = Number(process.env.BENCH_WARM_UP ?? 3000);
const SETS = (process.env.BENCH_SETS ?? "locomo,synthetic").split(",");
const BACKENDS = parseBackends(process.env.BENCH_BACKENDS ?? "sqlite").filter((backend) => {
  if (backend !== "postgres" || postgresUrl()) return true;
  console.log("postgres skipped: set BENCH_POSTGRES_URL to a database to run it");
  return false;
});
const RSS = process.env.BENCH_RSS !== "0";
// A run of many minutes reports a failed request (a timed-out Markdown store) instead of dying.
const RUN = { maxSeconds: MAX_SECONDS, tolerateFailures: true };

/** store, get, recall (and context, which the reference server does not have). */
async function measure(
  url: string,
  set: BenchSet,
  run: string,
  context: boolean,
  processes: number,
) {
  const pick = <T>(list: T[], i: number) => list[i % list.length]!;
  const operation = (name: string, call: (i: number) => Call) =>
    runOperation(url, name, REQUESTS, CONCURRENCY, call, RUN);
  const recall = (i: number): Call => ({
    method: "POST",
    path: "/v1/recall",
    body: { query: pick(set.queries, i), limit: 5 },
  });
  await runOperation(url, "warm-up", WARM_UP * processes, CONCURRENCY, recall, RUN);
  const results: OperationResult[] = [
    await operation("store", (i) => ({
      method: "POST",
      path: "/v1/memories",
      body: { key: `${run}-new-${i}`, content: pick(set.newContents, i), category: "daily" },
    })),
    await operation("get", (i) => ({
      method: "GET",
      path: `/v1/memories/${encodeURIComponent(pick(set.rows, i * 7919).key)}`,
    })),
    await operation("recall", recall),
  ];
  if (context) {
    results.push(
      await operation("context", (i) => ({
        method: "POST",
        path: "/v1/context",
        body: { message: pick(set.queries, i) },
      })),
    );
  }
  return results;
}

const load = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(" ");

/** Progress on stderr, so a long run shows where it is; the tables go to stdout at the end. */
const progress = (line: string) =>
  console.error(`[${new Date().toISOString()}] ${line} (load ${load()})`);

interface Results {
  rows: Row[];
  imports: ImportRow[];
}

/** Ours on a fresh store of `backend`: import with 1 worker, measure, then N workers. */
async function benchBackend(set: BenchSet, backend: Backend, dir: string, results: Results) {
  const base = { set: set.name, entries: set.rows.length, backend };
  const record = (server: string, processes: number, measured: OperationResult[]) => {
    const now = load();
    for (const result of measured)
      results.rows.push({ ...result, ...base, server, processes, load: now });
  };
  const store = benchStore(backend, dir);
  try {
    progress(`${set.name} ${backend}: importing ${set.rows.length} rows`);
    const single = await ours(store, 1);
    try {
      const seconds = await importRows(single.url, set);
      results.imports.push({ ...base, seconds, load: load() });
      progress(`${set.name} ${backend}: imported in ${seconds.toFixed(1)} s; 1 worker`);
      record("ours, 1 worker", 1, await measure(single.url, set, "one", true, 1));
    } finally {
      await single.stop();
    }
    // Same store, now served by N workers.
    progress(`${set.name} ${backend}: ${WORKERS} workers`);
    const many = await ours(store, WORKERS);
    try {
      record(
        `ours, ${WORKERS} workers`,
        WORKERS,
        await measure(many.url, set, "many", true, WORKERS),
      );
    } finally {
      await many.stop();
    }
  } finally {
    await store.drop();
    rmSync(store.cwd, { recursive: true, force: true });
  }
}

async function benchSet(set: BenchSet, results: Results): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), "memory-throughput-"));
  try {
    // The reference in 1 process, then in N: how far N processes of the least a server can do
    // scale on this machine beside the load generator, the ceiling ours' N workers meet.
    for (const processes of [1, WORKERS]) {
      progress(`${set.name}: reference server, ${processes} process(es)`);
      const reference = await launchReference(dir, set, processes);
      try {
        const measured = await measure(reference.url, set, `ref${processes}`, false, processes);
        const now = load();
        for (const result of measured) {
          results.rows.push({
            ...result,
            set: set.name,
            entries: set.rows.length,
            backend: "sqlite",
            server: referenceServer(processes),
            processes,
            load: now,
          });
        }
      } finally {
        await reference.stop();
      }
    }
    for (const backend of BACKENDS) await benchBackend(set, backend, dir, results);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function rssOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? Number.NaN) / 1024;
}

/** Resident memory of each worker after a few recalls, with `noop` and with `local`. */
async function workerRss(): Promise<string[]> {
  const lines: string[] = [];
  const dir = mkdtempSync(path.join(tmpdir(), "memory-rss-"));
  try {
    for (const embedder of ["noop", "local"]) {
      const server = await ours(benchStore("sqlite", dir), WORKERS, { embedder });
      try {
        await runOperation(server.url, "warm-up", 200, CONCURRENCY, (i) => ({
          method: "POST",
          path: "/v1/recall",
          body: { query: `remember the hiking trip ${i}` },
        }));
        const pids = [...server.stderr.text.matchAll(/worker \d+ \(pid (\d+)\) listening/g)].map(
          (m) => Number(m[1]),
        );
        const rss = pids.map(rssOf);
        const recall = /recall:\s+(.*)/.exec(server.stdout.text)?.[1];
        lines.push(
          `| ${embedder} | ${pids.length} | ${rss.map((mb) => mb.toFixed(0)).join(", ")} | ${rssOf(server.child.pid!).toFixed(0)} | ${recall ?? "?"} |`,
        );
      } finally {
        await server.stop();
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return lines;
}

async function main(): Promise<void> {
  const before = load();
  const sets: BenchSet[] = [];
  if (SETS.includes("locomo")) sets.push(locomoSet());
  if (SETS.includes("synthetic")) for (const size of SIZES) sets.push(syntheticSet(size));
  const cap = Number.isFinite(MAX_SECONDS) ? ` (or ${MAX_SECONDS} s)` : "";
  console.log(
    `\n@memory/server throughput: ${REQUESTS} requests per operation${cap}, ${CONCURRENCY} keep-alive clients, backends ${BACKENDS.join(", ")}, keyword-only (noop embedder), ${WORKERS} workers for the N-worker rows`,
  );
  console.log(
    `machine: ${availableParallelism()} cores (${cpus()[0]?.model ?? "unknown CPU"}), Node ${process.version}; load average before: ${before}; the load generator runs on the same cores`,
  );
  console.log(
    `sets: ${sets.map((set) => `${set.name} (${set.rows.length} entries, ${set.queries.length} distinct queries)`).join("; ")}`,
  );
  // Each set's tables as soon as it is done: a long run that is stopped keeps what it measured.
  for (const set of sets) {
    const results: Results = { rows: [], imports: [] };
    await benchSet(set, results);
    console.log(`\n#### ${set.name}\n`);
    printImports(results.imports);
    console.log("");
    printTable(results.rows);
    printRatios(results.rows, WORKERS);
  }
  const rss = RSS ? await workerRss() : [];
  if (rss.length > 0) {
    console.log(
      `\nResident memory per worker process (MB, VmRSS after 200 recalls), ${WORKERS} workers, SQLite:\n`,
    );
    console.log("| embedder | workers | RSS per worker (MB) | primary RSS (MB) | recall mode |");
    console.log("|---|---:|---|---:|---|");
    for (const line of rss) console.log(line);
  }
  console.log(`\nload average after: ${load()}`);
}

await main();
