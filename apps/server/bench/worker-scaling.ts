/**
 * What N workers gain over 1, measured so that the answer holds still on a shared machine: the
 * servers run side by side (ours with 1 worker and with N on one SQLite store, the reference
 * server in 1 process and in N on its own file) and take turns, round after round, each round
 * sending the same number of requests to each. Beside requests/s it reads the CPU time every
 * server process spent (primary and workers, all threads, /proc/<pid>/task/<tid>/stat), so a
 * loss shows as either more CPU per request or cores left idle. The main threads (event loops)
 * are counted apart: their cores busy N / 1 is what N workers would gain at one worker's CPU
 * per request, since V8's helper threads and the load generator take the rest of the cores.
 *
 *   pnpm --filter @memory/server bench:scaling      (after building @memory/server; Linux)
 *   BENCH_SETS=synthetic,locomo  BENCH_ENTRIES=10000  BENCH_WORKERS=<n, default cores>
 *   BENCH_ROUNDS=5  BENCH_PER_ROUND=3000  BENCH_WARM_UP=3000 (per process)  BENCH_CONCURRENCY=16
 *   BENCH_OPERATION=recall|context|get|store  (the reference has no context)
 *   BENCH_USAGE_TRACKING=false  (recalls record no usage: what recording it costs)
 *
 * bench:throughput runs each server once, 2,000 requests per operation, one server after the
 * other: minutes apart, a burst of other work moves one row by tens of percent. Not a test:
 * nothing is asserted.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { availableParallelism, cpus, tmpdir } from "node:os";
import path from "node:path";
import { type BenchSet, locomoSet, syntheticSet } from "./bench-data.js";
import { importRows, ours, type Running, reference } from "./bench-servers.js";
import { benchStore } from "./bench-stores.js";
import { type Call, runOperation } from "./load.js";
import { cpuMs, loadAverage, mainThreadCpuMs, processTree } from "./proc-stats.js";

const WORKERS = Number(process.env.BENCH_WORKERS ?? availableParallelism());
const ENTRIES = Number(process.env.BENCH_ENTRIES ?? 10_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const PER_ROUND = Number(process.env.BENCH_PER_ROUND ?? 3000);
const WARM_UP = Number(process.env.BENCH_WARM_UP ?? 3000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const SETS = (process.env.BENCH_SETS ?? "synthetic,locomo").split(",");
const OPERATION = process.env.BENCH_OPERATION ?? "recall";
if (!["recall", "context", "get", "store"].includes(OPERATION))
  throw new Error(`BENCH_OPERATION: use recall, context, get or store, not "${OPERATION}"`);
interface Server {
  name: string;
  processes: number;
  running: Running;
  cpu: number;
  /** Of `cpu`, the main threads' (event loops'): the rest is helper threads. */
  mainCpu: number;
  seconds: number;
  clientCpu: number;
  requests: number;
  /** Requests/s of each round. */
  rates: number[];
}

/** The i-th request; `server` keeps the keys of one server's stores apart from another's. */
function callOf(set: BenchSet, server: number): (i: number) => Call {
  const pick = <T>(list: T[], i: number) => list[i % list.length]!;
  if (OPERATION === "store")
    return (i) => ({
      method: "POST",
      path: "/v1/memories",
      body: { key: `scaling-${server}-${i}`, content: pick(set.newContents, i), category: "daily" },
    });
  if (OPERATION === "get")
    return (i) => ({
      method: "GET",
      path: `/v1/memories/${encodeURIComponent(pick(set.rows, i * 7919).key)}`,
    });
  if (OPERATION === "context")
    return (i) => ({
      method: "POST",
      path: "/v1/context",
      body: { message: pick(set.queries, i) },
    });
  return (i) => ({
    method: "POST",
    path: "/v1/recall",
    body: { query: pick(set.queries, i), limit: 5 },
  });
}

async function start(dir: string, set: BenchSet): Promise<Server[]> {
  const servers: Server[] = [];
  const add = (name: string, processes: number, running: Running) =>
    servers.push({
      name,
      processes,
      running,
      cpu: 0,
      mainCpu: 0,
      seconds: 0,
      clientCpu: 0,
      requests: 0,
      rates: [],
    });
  try {
    if (OPERATION !== "context") {
      add("reference, 1 process", 1, await reference(dir, set, 1));
      add(`reference, ${WORKERS} processes`, WORKERS, await reference(dir, set, WORKERS));
    }
    const store = benchStore("sqlite", dir);
    const single = await ours(store, 1);
    add("ours, 1 worker", 1, single);
    await importRows(single.url, set);
    add(`ours, ${WORKERS} workers`, WORKERS, await ours(store, WORKERS));
  } catch (error) {
    for (const server of servers) await server.running.stop();
    throw error;
  }
  return servers;
}

async function benchSet(set: BenchSet): Promise<string[]> {
  const dir = mkdtempSync(path.join(tmpdir(), "memory-scaling-"));
  const servers = await start(dir, set);
  try {
    // Warm-up from the top of the request list, rounds after it: no key is stored twice. Each
    // process compiles its own code and fills its own caches (term statistics, SQLite pages),
    // so a server of N processes gets N times the warm-up: every process sees WARM_UP requests.
    // With WARM_UP in all, two workers ran their first rounds half warm and measured 1.39x one
    // worker at 1.25x its CPU per request; warmed alike, 1.66x at 1.04x (docs/benchmarks.md).
    for (const [index, server] of servers.entries())
      await runOperation(
        server.running.url,
        "warm-up",
        WARM_UP * server.processes,
        CONCURRENCY,
        callOf(set, index),
      );
    for (let round = 0; round < ROUNDS; round++) {
      for (const [index, server] of servers.entries()) {
        const call = callOf(set, index);
        const pids = processTree(server.running.child.pid!);
        const total = (read: (pid: number) => number) =>
          pids.reduce((sum, pid) => sum + read(pid), 0);
        const [before, mainBefore] = [total(cpuMs), total(mainThreadCpuMs)];
        const offset = WARM_UP * server.processes + round * PER_ROUND;
        const result = await runOperation(
          server.running.url,
          OPERATION,
          PER_ROUND,
          CONCURRENCY,
          (i) => call(offset + i),
        );
        server.cpu += total(cpuMs) - before;
        server.mainCpu += total(mainThreadCpuMs) - mainBefore;
        server.rates.push(result.requests / result.seconds);
        server.seconds += result.seconds;
        server.clientCpu += result.clientCores * result.seconds;
        server.requests += result.requests;
      }
    }
  } finally {
    for (const server of servers) await server.running.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  const rate = (server: Server) => server.requests / server.seconds;
  const perRequest = (server: Server, cpu: number) => cpu / server.requests;
  const lines = servers.map(
    (server) =>
      `| ${set.name} | ${server.name} | ${rate(server).toFixed(0)} | ${perRequest(server, server.cpu).toFixed(2)} | ${(server.cpu / 1000 / server.seconds).toFixed(2)} (${(server.mainCpu / 1000 / server.seconds).toFixed(2)}) | ${(server.clientCpu / server.seconds).toFixed(2)} |`,
  );
  // Each pair: N processes against 1 of the same server, in all and round by round (the two
  // measured seconds apart: a burst of other work on the host moves one round, not the median).
  for (let i = 0; i + 1 < servers.length; i += 2) {
    const [one, many] = [servers[i]!, servers[i + 1]!];
    const rounds = many.rates.map((rate, round) => rate / one.rates[round]!).sort((a, b) => a - b);
    const median = rounds[Math.floor(rounds.length / 2)]!;
    const cpuRatio = (cpu: (server: Server) => number) =>
      (perRequest(many, cpu(many)) / perRequest(one, cpu(one))).toFixed(2);
    lines.push(
      `| ${set.name} | ${many.name.split(",")[0]}: ${WORKERS} / 1 | **${(rate(many) / rate(one)).toFixed(2)}x** (rounds ${rounds[0]!.toFixed(2)}-${rounds.at(-1)!.toFixed(2)}x, median ${median.toFixed(2)}x) | ${cpuRatio((server) => server.cpu)}x (main threads ${cpuRatio((server) => server.mainCpu)}x) | main threads ${(many.mainCpu / many.seconds / (one.mainCpu / one.seconds)).toFixed(2)}x | |`,
    );
  }
  return lines;
}

const load = loadAverage;
const before = load();
const sets: BenchSet[] = [];
if (SETS.includes("synthetic")) sets.push(syntheticSet(ENTRIES));
if (SETS.includes("locomo")) sets.push(locomoSet());
const rows: string[] = [];
for (const set of sets) rows.push(...(await benchSet(set)));
console.log(
  `@memory/server worker scaling, ${OPERATION}: ${ROUNDS} interleaved rounds of ${PER_ROUND} requests per server after ${WARM_UP} warm-up per process, ${CONCURRENCY} keep-alive clients, SQLite, keyword-only (noop embedder), usage tracking ${process.env.BENCH_USAGE_TRACKING === "false" ? "off" : "on"}`,
);
console.log(
  `machine: ${availableParallelism()} cores (${cpus()[0]?.model ?? "unknown CPU"}), Node ${process.version}; load average before: ${before}, after: ${load()}; the load generator runs on the same cores\n`,
);
console.log(
  "| set | server | requests/s | server CPU ms per request | server cores busy (main threads) | load generator cores |",
);
console.log("|---|---|---:|---:|---:|---:|");
for (const row of rows) console.log(row);
