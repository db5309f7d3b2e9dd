/** The load generator of the throughput benchmark: keep-alive node:http clients, latencies. */
import { Agent, request as httpRequest } from "node:http";

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

function send(agent: Agent, base: string, call: Call): Promise<void> {
  return new Promise((resolve, reject) => {
    const payload = call.body === undefined ? undefined : JSON.stringify(call.body);
    const request = httpRequest(
      `${base}${call.path}`,
      {
        method: call.method,
        agent,
        headers: payload === undefined ? {} : { "content-type": "application/json" },
      },
      (response) => {
        response.resume();
        response.on("end", () =>
          response.statusCode === 200
            ? resolve()
            : reject(new Error(`${call.method} ${call.path}: HTTP ${response.statusCode}`)),
        );
      },
    );
    request.on("error", reject);
    request.end(payload);
  });
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
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  const latencies: number[] = [];
  let failed = 0;
  let next = 0;
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  const deadline = started + maxSeconds * 1000;
  try {
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        for (let i = next++; i < total && performance.now() < deadline; i = next++) {
          const t = performance.now();
          try {
            await send(agent, base, call(i));
          } catch (error) {
            if (!options.tolerateFailures) throw error;
            failed += 1;
            continue;
          }
          latencies.push(performance.now() - t);
        }
      }),
    );
  } finally {
    agent.destroy();
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
