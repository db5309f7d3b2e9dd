/** The tables and ratio lines that throughput-bench.ts prints, as Markdown ready to paste. */
import type { OperationResult } from "./load.js";

export interface Row extends OperationResult {
  set: string;
  entries: number;
  backend: string;
  server: string;
  /** Processes that serve requests (a cluster's primary only accepts connections). */
  processes: number;
  /** Load average (1/5/15 min) when the server's operations were done. */
  load: string;
}

export interface ImportRow {
  set: string;
  entries: number;
  backend: string;
  seconds: number;
  load: string;
}

/** The reference server's row name in `processes` processes (the bench writes it, the ratios find it). */
export const referenceServer = (processes: number) =>
  `reference (node:http + FTS5), ${processes} process${processes > 1 ? "es" : ""}`;

const rateOf = (row: OperationResult) => row.requests / row.seconds;
/** One decimal below 10/s, so a store that answers a few requests a second does not read 0. */
const formatRate = (rate: number) => rate.toFixed(rate < 10 ? 1 : 0);

export function printImports(imports: ImportRow[]): void {
  console.log("Import through `POST /v1/import` (1,000 rows a request, ours with 1 worker):\n");
  console.log("| set | entries | backend | seconds | rows/s | load avg (1/5/15 min) after |");
  console.log("|---|---:|---|---:|---:|---|");
  for (const row of imports) {
    console.log(
      `| ${row.set} | ${row.entries} | ${row.backend} | ${row.seconds.toFixed(1)} | ${(row.entries / row.seconds).toFixed(0)} | ${row.load} |`,
    );
  }
}

export function printTable(rows: Row[]): void {
  console.log(
    "| set | entries | backend | server | operation | requests answered | requests/s | requests/s per serving process | p50 (ms) | p99 (ms) | load generator (cores) | load avg (1/5/15 min) after |",
  );
  console.log("|---|---:|---|---|---|---:|---:|---:|---:|---:|---:|---|");
  for (const row of rows) {
    const rate = rateOf(row);
    console.log(
      `| ${row.set} | ${row.entries} | ${row.backend} | ${row.server} | ${row.operation} | ${row.requests}${row.failed ? ` (${row.failed} failed)` : ""} | ${formatRate(rate)} | ${formatRate(rate / row.processes)} | ${row.p50.toFixed(2)} | ${row.p99.toFixed(2)} | ${row.clientCores.toFixed(2)} | ${row.load} |`,
    );
  }
}

/**
 * Issue 29's two targets, per data set and backend: ours with 1 worker recalls at least 0.7x
 * the reference's requests/s, and N workers serve at least 1.7x what 1 worker serves.
 */
export function printRatios(rows: Row[], workers: number): void {
  console.log("\nRatios (throughput):");
  const rate = (set: string, backend: string | undefined, server: string, operation: string) => {
    const row = rows.find(
      (r) =>
        r.set === set &&
        (backend === undefined || r.backend === backend) &&
        r.server.startsWith(server) &&
        r.operation === operation,
    );
    return row ? rateOf(row) : Number.NaN;
  };
  const runs = new Map<string, { set: string; backend: string }>();
  for (const row of rows) {
    if (row.server.startsWith("ours"))
      runs.set(`${row.set} ${row.backend}`, { set: row.set, backend: row.backend });
  }
  for (const { set, backend } of runs.values()) {
    const reference = rate(set, undefined, referenceServer(1), "recall");
    const single = rate(set, backend, "ours, 1 worker", "recall");
    console.log(
      `- ${set}, ${backend}: ours 1 worker recall / reference recall = ${(single / reference).toFixed(2)}x (target >= 0.7x)`,
    );
    for (const operation of ["store", "get", "recall", "context"]) {
      const scaling =
        rate(set, backend, `ours, ${workers} workers`, operation) /
        rate(set, backend, "ours, 1 worker", operation);
      // What N processes of the reference gain on the same machine: the ceiling of scaling here.
      const ceiling =
        rate(set, undefined, referenceServer(workers), operation) /
        rate(set, undefined, referenceServer(1), operation);
      const reference = Number.isNaN(ceiling) ? "" : `; reference ${ceiling.toFixed(2)}x`;
      console.log(
        `- ${set}, ${backend}: ${operation}, ${workers} workers / 1 worker = ${scaling.toFixed(2)}x (target >= 1.7x${reference})`,
      );
    }
  }
}
