/**
 * HTTP benchmark: requests/s and p50/p99 latency for store and recall with 10k stored memories.
 *
 *   pnpm --filter @memory/server bench            (after `npx tsdown` in apps/server)
 *   BENCH_ENTRIES=10000 BENCH_REQUESTS=3000 BENCH_CONCURRENCY=16 BENCH_EMBEDDER=noop|local
 *
 * The server (`node dist/main.mjs`) runs on SQLite when @memory/sqlite is built, else on the
 * `none` backend, which is reported. With an embedder (`local`: the offline USE-lite model) the
 * bench waits until every imported entry has its vector, so recall is hybrid throughout and the
 * query's embedding is part of each request. The server is a process of its own; this process
 * only generates load, with keep-alive connections, so the numbers include HTTP and JSON work.
 * Not a test: nothing is asserted.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { syntheticText } from "./bench-data.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const ENTRIES = Number(process.env.BENCH_ENTRIES ?? 10_000);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 3000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const EMBEDDER = process.env.BENCH_EMBEDDER ?? "noop";
const backend = existsSync(path.join(root, "node_modules/@memory/sqlite/dist/index.mjs"))
  ? "sqlite"
  : "none";

// Deterministic text: a small vocabulary, so queries hit a realistic share of documents.
const { word, sentence } = syntheticText();

async function startServer(dir: string): Promise<{ url: string; stop(): Promise<void> }> {
  const config = path.join(dir, "memory.toml");
  writeFileSync(
    config,
    `[memory]\nbackend = "${backend}"\ndata_dir = "."\nembedding_provider = "${EMBEDDER}"\ndefer_embedding = true\n\n[server]\nmax_import_bytes = 1073741824\n`,
  );
  const child = spawn(
    process.execPath,
    [
      path.join(root, "dist/main.mjs"),
      "--config",
      config,
      "--port",
      "0",
      "--allow-unauthenticated-loopback",
    ],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  let output = "";
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on("data", (chunk) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match) resolve(match[1]!);
    });
    child.once("exit", (code) => reject(new Error(`server exited with ${code}`)));
  });
  return {
    url,
    stop: () =>
      new Promise<void>((resolve) => {
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}

interface Result {
  name: string;
  requests: number;
  seconds: number;
  p50: number;
  p99: number;
}

async function run(
  name: string,
  total: number,
  request: (i: number) => Promise<Response>,
): Promise<Result> {
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      for (let i = next++; i < total; i = next++) {
        const t = performance.now();
        const response = await request(i);
        await response.arrayBuffer();
        if (!response.ok) throw new Error(`${name} ${i}: HTTP ${response.status}`);
        latencies.push(performance.now() - t);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const at = (q: number) =>
    latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!;
  return { name, requests: total, seconds, p50: at(0.5), p99: at(0.99) };
}

/** Seconds until `/readyz` reports no entry waiting for its embedding (30 minutes at most). */
async function untilEmbedded(url: string): Promise<number> {
  const started = performance.now();
  for (;;) {
    const ready = (await (await fetch(`${url}/readyz`)).json()) as {
      pendingEmbeddings: number;
      vector: { status: string; reason?: string };
    };
    if (ready.vector.status !== "ok")
      throw new Error(`vector recall is ${ready.vector.status}: ${ready.vector.reason ?? ""}`);
    const seconds = (performance.now() - started) / 1000;
    if (ready.pendingEmbeddings === 0) return seconds;
    if (seconds > 1800) throw new Error(`${ready.pendingEmbeddings} entries still not embedded`);
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), "memory-bench-"));
  const server = await startServer(dir);
  const json = { "content-type": "application/json" };
  try {
    const lines = Array.from({ length: ENTRIES }, (_, i) =>
      JSON.stringify({
        key: `seed-${i}`,
        content: sentence(12 + (i % 20)),
        category: i % 5 === 0 ? "core" : "daily",
      }),
    );
    const t = performance.now();
    // Batches of 1000 lines keep each request short even when the backend embeds inline.
    const report = { imported: 0 };
    for (let start = 0; start < lines.length; start += 1000) {
      const response = await fetch(`${server.url}/v1/import`, {
        method: "POST",
        body: lines.slice(start, start + 1000).join("\n"),
      });
      report.imported += ((await response.json()) as { imported: number }).imported;
    }
    const importSeconds = (performance.now() - t) / 1000;
    await fetch(`${server.url}/v1/count`);
    // With an embedder, entries are embedded after the import (defer_embedding): recall is
    // measured once every entry has its vector, so it is hybrid recall throughout.
    const embedSeconds = EMBEDDER === "noop" ? 0 : await untilEmbedded(server.url);

    // Warm up the JIT and the connection pool.
    await run("warm-up", 200, (i) =>
      fetch(`${server.url}/v1/recall`, {
        method: "POST",
        headers: json,
        body: JSON.stringify({ query: `${word()} ${i}` }),
      }),
    );
    const stored = await run("store", REQUESTS, (i) =>
      fetch(`${server.url}/v1/memories`, {
        method: "POST",
        headers: json,
        body: JSON.stringify({ key: `bench-${i}`, content: sentence(20), category: "daily" }),
      }),
    );
    // Those stores are embedded in the background too: recall is not measured beside them.
    if (EMBEDDER !== "noop") await untilEmbedded(server.url);
    const results = [
      stored,
      await run("recall", REQUESTS, () =>
        fetch(`${server.url}/v1/recall`, {
          method: "POST",
          headers: json,
          body: JSON.stringify({ query: `${word()} ${word()} ${word()}`, limit: 5 }),
        }),
      ),
      await run("get", REQUESTS, (i) =>
        fetch(`${server.url}/v1/memories/seed-${(i * 7919) % ENTRIES}`),
      ),
    ];
    const cpu = cpus()[0]?.model ?? "unknown CPU";
    console.log(
      `\n@memory/server benchmark: ${report.imported} stored entries (imported in ${importSeconds.toFixed(1)} s${EMBEDDER === "noop" ? "" : `, every entry embedded ${embedSeconds.toFixed(1)} s later`}), backend ${backend}, embedder ${EMBEDDER}, ${CONCURRENCY} concurrent keep-alive clients`,
    );
    console.log(
      `machine: ${cpus().length} x ${cpu}, Node ${process.version}, ${process.platform}\n`,
    );
    console.log("| operation | requests | requests/s | p50 (ms) | p99 (ms) |");
    console.log("|---|---:|---:|---:|---:|");
    for (const result of results) {
      console.log(
        `| ${result.name} | ${result.requests} | ${(result.requests / result.seconds).toFixed(0)} | ${result.p50.toFixed(2)} | ${result.p99.toFixed(2)} |`,
      );
    }
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
