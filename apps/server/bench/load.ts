/** The load generator of the throughput benchmark: keep-alive node:http clients, latencies. */
import { Agent, request as httpRequest } from "node:http";

export interface OperationResult {
  operation: string;
  requests: number;
  seconds: number;
  p50: number;
  p99: number;
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

/**
 * Sends `total` requests from `concurrency` keep-alive clients (one socket each: the cluster
 * hands connections, not requests, to its workers, so several sockets spread the load).
 */
export async function runOperation(
  base: string,
  operation: string,
  total: number,
  concurrency: number,
  call: (i: number) => Call,
): Promise<OperationResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  try {
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        for (let i = next++; i < total; i = next++) {
          const t = performance.now();
          await send(agent, base, call(i));
          latencies.push(performance.now() - t);
        }
      }),
    );
  } finally {
    agent.destroy();
  }
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const at = (q: number) =>
    latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!;
  return { operation, requests: total, seconds, p50: at(0.5), p99: at(0.99) };
}
