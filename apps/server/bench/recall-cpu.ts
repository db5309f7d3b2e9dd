/**
 * Recall cost per request on the server side: the reference server (reference-server.mjs) and
 * ours with 1 worker (in-process, no cluster), the CPU time each server process spent per
 * recall (user + system, /proc/<pid>/stat) beside requests/s, in interleaved rounds.
 *
 *   pnpm --filter @memory/server bench:recall-cpu      (after building @memory/server; Linux)
 *   BENCH_SETS=synthetic,locomo  BENCH_ENTRIES=10000  BENCH_ROUNDS=6  BENCH_PER_ROUND=500
 *   BENCH_CONCURRENCY=16  BENCH_CPU_PROF=<dir> (our server runs with --cpu-prof into <dir>)
 *   BENCH_OPERATION=context: ours' `POST /v1/context` instead (the reference has none: ours alone)
 *
 * bench:throughput measures each server in its own minutes, one after the other; on a shared
 * machine a burst of other work in one server's minutes moves its requests/s (not its CPU
 * time per request). Here both servers live through the same minutes: each round sends
 * BENCH_PER_ROUND recalls to the reference, then as many to ours, and the CPU time each server
 * process used is read before and after. Before the rounds each server goes through what
 * bench:throughput does first: the set's rows (ours: `POST /v1/import`), 300 warm-up recalls
 * and 2,000 stores. Not a test: nothing is asserted.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { availableParallelism, cpus, tmpdir } from "node:os";
import path from "node:path";
import { type BenchSet, locomoSet, syntheticSet } from "./bench-data.js";
import { importRows, ours, type Running, reference } from "./bench-servers.js";
import { benchStore } from "./bench-stores.js";
import { type Call, runOperation } from "./load.js";
import { cpuMs, loadAverage } from "./proc-stats.js";

const ENTRIES = Number(process.env.BENCH_ENTRIES ?? 10_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 6);
const PER_ROUND = Number(process.env.BENCH_PER_ROUND ?? 500);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const SETS = (process.env.BENCH_SETS ?? "synthetic").split(",");
const PROFILE_DIR = process.env.BENCH_CPU_PROF;
const CONTEXT = process.env.BENCH_OPERATION === "context";
const load = loadAverage;

interface Totals {
  cpu: number;
  seconds: number;
  p50: number[];
}

async function benchSet(set: BenchSet): Promise<string> {
  const dir = mkdtempSync(path.join(tmpdir(), "memory-recall-cpu-"));
  const servers: { name: string; running: Running; totals: Totals }[] = [];
  try {
    if (!CONTEXT)
      servers.push({
        name: "reference",
        running: await reference(dir, set),
        totals: { cpu: 0, seconds: 0, p50: [] },
      });
    const profile = PROFILE_DIR ? ["--cpu-prof", `--cpu-prof-dir=${PROFILE_DIR}`] : [];
    const own = await ours(benchStore("sqlite", dir), 1, { nodeOptions: profile });
    servers.push({ name: "ours, 1 worker", running: own, totals: { cpu: 0, seconds: 0, p50: [] } });
    await importRows(own.url, set);
    const recall =
      (offset: number) =>
      (i: number): Call => ({
        method: "POST",
        path: "/v1/recall",
        body: { query: set.queries[(offset + i) % set.queries.length]!, limit: 5 },
      });
    for (const { name, running } of servers) {
      await runOperation(running.url, "warm-up", 300, CONCURRENCY, recall(0));
      await runOperation(running.url, "store", 2000, CONCURRENCY, (i) => ({
        method: "POST",
        path: "/v1/memories",
        body: {
          key: `${name.slice(0, 3)}-new-${i}`,
          content: set.newContents[i % set.newContents.length]!,
          category: "daily",
        },
      }));
    }
    const context =
      (offset: number) =>
      (i: number): Call => ({
        method: "POST",
        path: "/v1/context",
        body: { message: set.queries[(offset + i) % set.queries.length]! },
      });
    const measured = CONTEXT ? context : recall;
    for (let round = 0; round < ROUNDS; round++) {
      for (const { running, totals } of servers) {
        const before = cpuMs(running.child.pid!);
        const result = await runOperation(
          running.url,
          CONTEXT ? "context" : "recall",
          PER_ROUND,
          CONCURRENCY,
          measured(round * PER_ROUND),
        );
        totals.cpu += cpuMs(running.child.pid!) - before;
        totals.seconds += result.seconds;
        totals.p50.push(result.p50);
      }
    }
  } finally {
    for (const { running } of servers) await running.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  const requests = ROUNDS * PER_ROUND;
  const lines = servers.map(({ name, totals }) => {
    const p50 = [...totals.p50].sort((a, b) => a - b)[Math.floor(totals.p50.length / 2)]!;
    return `| ${set.name} | ${name} | ${(totals.cpu / requests).toFixed(2)} | ${(requests / totals.seconds).toFixed(0)} | ${p50.toFixed(1)} |`;
  });
  if (CONTEXT) return lines.join("\n");
  const [ref, own] = servers.map(({ totals }) => totals);
  lines.push(
    `| ${set.name} | ours / reference | ${(own!.cpu / ref!.cpu).toFixed(2)}x | ${(ref!.seconds / own!.seconds).toFixed(2)}x | |`,
  );
  return lines.join("\n");
}

const before = load();
const sets: BenchSet[] = [];
if (SETS.includes("synthetic")) sets.push(syntheticSet(ENTRIES));
if (SETS.includes("locomo")) sets.push(locomoSet());
const tables: string[] = [];
for (const set of sets) tables.push(await benchSet(set));
console.log(
  `@memory/server ${CONTEXT ? "context" : "recall"} CPU: ${ROUNDS} interleaved rounds of ${PER_ROUND} ${CONTEXT ? "contexts" : "recalls (limit 5)"} per server, ${CONCURRENCY} keep-alive clients, SQLite, keyword-only (noop embedder)`,
);
console.log(
  `machine: ${availableParallelism()} cores (${cpus()[0]?.model ?? "unknown CPU"}), Node ${process.version}; load average before: ${before}, after: ${load()}\n`,
);
const unit = CONTEXT ? "context" : "recall";
console.log(`| set | server | server CPU ms per ${unit} | ${unit}s/s | p50 of round p50s (ms) |`);
console.log("|---|---|---:|---:|---:|");
for (const table of tables) console.log(table);
