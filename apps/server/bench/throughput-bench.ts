/**
 * Throughput benchmark, in one run: a reference server (reference-server.mjs: node:http + one
 * bare FTS5 query, one process) against ours with 1 worker and with N workers, on real
 * conversational text (LoCoMo turns, questions as queries) and on the synthetic set of
 * server-bench.ts; then the resident memory of each worker with the `local` embedder.
 *
 *   pnpm --filter @memory/server bench:throughput      (after building @memory/server)
 *   BENCH_WORKERS=<n, default cores>  BENCH_ENTRIES=10000  BENCH_REQUESTS=2000
 *   BENCH_CONCURRENCY=16  BENCH_SETS=locomo,synthetic  BENCH_LOCOMO_FILE=...  BENCH_RSS=1
 *
 * Every server is a child process; this process only generates load (keep-alive node:http),
 * and it shares the machine's cores with the servers: on a 2-core machine it costs the servers
 * part of a core. Not a test: nothing is asserted.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { availableParallelism, cpus, loadavg, tmpdir } from "node:os";
import path from "node:path";
import { type BenchSet, locomoSet, syntheticSet } from "./bench-data.js";
import { importRows, reference as launchReference, ours } from "./bench-servers.js";
import { type Call, type OperationResult, runOperation } from "./load.js";

const WORKERS = Number(process.env.BENCH_WORKERS ?? availableParallelism());
const ENTRIES = Number(process.env.BENCH_ENTRIES ?? 10_000);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 2000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const SETS = (process.env.BENCH_SETS ?? "locomo,synthetic").split(",");
const RSS = process.env.BENCH_RSS !== "0";

/** store, get, recall (and context, which the reference server does not have). */
async function measure(url: string, set: BenchSet, run: string, context: boolean) {
  const pick = <T>(list: T[], i: number) => list[i % list.length]!;
  const recall = (i: number): Call => ({
    method: "POST",
    path: "/v1/recall",
    body: { query: pick(set.queries, i), limit: 5 },
  });
  await runOperation(url, "warm-up", 300, CONCURRENCY, recall);
  const results: OperationResult[] = [
    await runOperation(url, "store", REQUESTS, CONCURRENCY, (i) => ({
      method: "POST",
      path: "/v1/memories",
      body: { key: `${run}-new-${i}`, content: pick(set.newContents, i), category: "daily" },
    })),
    await runOperation(url, "get", REQUESTS, CONCURRENCY, (i) => ({
      method: "GET",
      path: `/v1/memories/${encodeURIComponent(pick(set.rows, i * 7919).key)}`,
    })),
    await runOperation(url, "recall", REQUESTS, CONCURRENCY, recall),
  ];
  if (context) {
    results.push(
      await runOperation(url, "context", REQUESTS, CONCURRENCY, (i) => ({
        method: "POST",
        path: "/v1/context",
        body: { message: pick(set.queries, i) },
      })),
    );
  }
  return results;
}

interface Row extends OperationResult {
  set: string;
  server: string;
  processes: number;
  load: string;
}

const load = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(" ");

async function benchSet(set: BenchSet): Promise<Row[]> {
  const dir = mkdtempSync(path.join(tmpdir(), "memory-throughput-"));
  const rows: Row[] = [];
  const record = (server: string, processes: number, results: OperationResult[]) => {
    const now = load();
    for (const result of results)
      rows.push({ ...result, set: set.name, server, processes, load: now });
  };
  try {
    const reference = await launchReference(dir, set);
    try {
      record("reference (node:http + FTS5)", 1, await measure(reference.url, set, "ref", false));
    } finally {
      await reference.stop();
    }
    const single = await ours(dir, 1);
    try {
      await importRows(single.url, set);
      record("ours, 1 worker", 1, await measure(single.url, set, "one", true));
    } finally {
      await single.stop();
    }
    // Same store, now served by N workers.
    const many = await ours(dir, WORKERS);
    try {
      record(`ours, ${WORKERS} workers`, WORKERS, await measure(many.url, set, "many", true));
    } finally {
      await many.stop();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return rows;
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
      const server = await ours(dir, WORKERS, embedder);
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

function printTable(rows: Row[]): void {
  console.log(
    "| set | server | operation | requests/s | requests/s per serving process | p50 (ms) | p99 (ms) | load avg (1/5/15 min) after |",
  );
  console.log("|---|---|---|---:|---:|---:|---:|---|");
  for (const row of rows) {
    const rate = row.requests / row.seconds;
    console.log(
      `| ${row.set} | ${row.server} | ${row.operation} | ${rate.toFixed(0)} | ${(rate / row.processes).toFixed(0)} | ${row.p50.toFixed(2)} | ${row.p99.toFixed(2)} | ${row.load} |`,
    );
  }
  console.log("\nRatios (throughput):");
  const rate = (set: string, server: string, operation: string) => {
    const row = rows.find(
      (r) => r.set === set && r.server.startsWith(server) && r.operation === operation,
    );
    return row ? row.requests / row.seconds : Number.NaN;
  };
  for (const set of [...new Set(rows.map((row) => row.set))]) {
    const recallVsReference = rate(set, "ours, 1", "recall") / rate(set, "reference", "recall");
    console.log(
      `- ${set}: ours 1 worker recall / reference recall = ${recallVsReference.toFixed(2)}x (target >= 0.7x)`,
    );
    for (const operation of ["store", "get", "recall", "context"]) {
      const scaling = rate(set, `ours, ${WORKERS}`, operation) / rate(set, "ours, 1", operation);
      console.log(
        `- ${set}: ${operation}, ${WORKERS} workers / 1 worker = ${scaling.toFixed(2)}x (target >= 1.7x)`,
      );
    }
  }
}

async function main(): Promise<void> {
  const before = load();
  const sets: BenchSet[] = [];
  if (SETS.includes("locomo")) sets.push(locomoSet());
  if (SETS.includes("synthetic")) sets.push(syntheticSet(ENTRIES));
  const rows: Row[] = [];
  for (const set of sets) rows.push(...(await benchSet(set)));
  const rss = RSS ? await workerRss() : [];
  console.log(
    `\n@memory/server throughput: ${REQUESTS} requests per operation, ${CONCURRENCY} keep-alive clients, SQLite, keyword-only (noop embedder), ${WORKERS} workers for the N-worker rows`,
  );
  console.log(
    `machine: ${availableParallelism()} cores (${cpus()[0]?.model ?? "unknown CPU"}), Node ${process.version}; load average before: ${before}, after: ${load()}; the load generator runs on the same cores`,
  );
  console.log(
    `sets: ${sets.map((set) => `${set.name} (${set.rows.length} entries, ${set.queries.length} distinct queries)`).join("; ")}\n`,
  );
  printTable(rows);
  if (rss.length > 0) {
    console.log(
      `\nResident memory per worker process (MB, VmRSS after 200 recalls), ${WORKERS} workers:\n`,
    );
    console.log("| embedder | workers | RSS per worker (MB) | primary RSS (MB) | recall mode |");
    console.log("|---|---:|---|---:|---|");
    for (const line of rss) console.log(line);
  }
}

await main();
