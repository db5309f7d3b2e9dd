/** The load generator of the throughput benchmarks: keep-alive connections (lean-http.ts), latencies. */
import { LeanConnection } from "./lean-http.js";

export interface OperationResult {
  operation: string;
  /** Requests answered with HTTP 200; their latencies make p50 and p99. */
  requests: number;
  /** Requests answered otherwise or not at all (only with `tolerateFailures`). */
  failed: number;
  seconds: number;
  p50: number;
  p99: number;
  /**
   * Cores this process (the load generator) kept busy meanwhile: its CPU time over the wall
   * time. It shares the machine with the servers, so N workers on C cores have C minus this to
   * share, the ceiling of their scaling for a cheap operation.
   */
  clientCores: number;
}

export interface Call {
  method: "GET" | "POST";
  path: string;
  body?: unknown;
}

async function send(connection: LeanConnection, call: Call): Promise<void> {
  const payload = call.body === undefined ? undefined : JSON.stringify(call.body);
  const response = await connection.request(call.method, call.path, payload);
  if (response.status !== 200)
    throw new Error(`${call.method} ${call.path}: HTTP ${response.status}`);
}

export interface RunOptions {
  /** No new request starts after this many seconds; `requests` says how many were answered. */
  maxSeconds?: number;
  /** Count failed requests (`failed`) and go on, instead of rejecting at the first one. */
  tolerateFailures?: boolean;
}

/**
 * Sends `total` requests from `concurrency` keep-alive clients (one socket each: the cluster
 * hands connections, not requests, to its workers, so several sockets spread the load).
 * `maxSeconds` bounds a slow operation on a large store, and `tolerateFailures` lets a long
 * run survive a store that times out under load (Markdown's writes queue on one tree lock).
 */
export async function runOperation(
  base: string,
  operation: string,
  total: number,
  concurrency: number,
  call: (i: number) => Call,
  options: RunOptions = {},
): Promise<OperationResult> {
  const maxSeconds = options.maxSeconds ?? Number.POSITIVE_INFINITY;
  const latencies: number[] = [];
  let failed = 0;
  let next = 0;
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  const deadline = started + maxSeconds * 1000;
  const connections: LeanConnection[] = [];
  const open = async (slot: number) => {
    connections[slot]?.close();
    connections[slot] = await LeanConnection.open(base);
    return connections[slot]!;
  };
  try {
    await Promise.all(
      Array.from({ length: concurrency }, async (_, slot) => {
        let connection = await open(slot);
        for (let i = next++; i < total && performance.now() < deadline; i = next++) {
          const t = performance.now();
          try {
            await send(connection, call(i));
          } catch (error) {
            if (!options.tolerateFailures) throw error;
            failed += 1;
            // A timed-out or closed connection does not carry the next request.
            connection = await open(slot);
            continue;
          }
          latencies.push(performance.now() - t);
        }
      }),
    );
  } finally {
    for (const connection of connections) connection?.close();
  }
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  const clientCores = (cpu.user + cpu.system) / 1e6 / seconds;
  latencies.sort((a, b) => a - b);
  const at = (q: number) =>
    latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? Number.NaN;
  return {
    operation,
    requests: latencies.length,
    failed,
    seconds,
    p50: at(0.5),
    p99: at(0.99),
    clientCores,
  };
}
