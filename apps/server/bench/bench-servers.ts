/**
 * The servers of the throughput benchmarks, as child processes: the reference server
 * (reference-server.mjs) and ours (dist/main.mjs on a store of bench-stores.ts), and the
 * import of a data set into ours. Shared by throughput-bench.ts and recall-cpu.ts.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { BenchSet } from "./bench-data.js";
import type { BenchStore } from "./bench-stores.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "..");

export interface Running {
  url: string;
  child: ChildProcess;
  stdout: { text: string };
  stderr: { text: string };
  stop(): Promise<void>;
}

/** Starts `node <command>` in `cwd`; resolves once it prints "listening on <url>". */
export function launch(
  command: string[],
  cwd: string,
  nodeOptions: string[] = [],
): Promise<Running> {
  const child = spawn(process.execPath, [...nodeOptions, ...command], {
    cwd,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const stderr = { text: "" };
  child.stderr!.on("data", (chunk) => {
    stderr.text += chunk.toString();
  });
  const stdout = { text: "" };
  return new Promise((resolve, reject) => {
    child.stdout!.on("data", (chunk) => {
      stdout.text += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(stdout.text);
      if (match)
        resolve({
          url: match[1]!,
          child,
          stdout,
          stderr,
          stop: () =>
            new Promise<void>((done) => {
              child.once("exit", () => done());
              child.kill("SIGTERM");
            }),
        });
    });
    child.once("exit", (code) =>
      reject(new Error(`${command[0]} exited with ${code}: ${stderr.text}`)),
    );
  });
}

/**
 * The reference server over `rows.jsonl` (written here) in `dir`, in `processes` processes
 * (node:cluster past one), each database file fresh.
 */
export function reference(dir: string, set: BenchSet, processes = 1): Promise<Running> {
  const jsonl = path.join(dir, "rows.jsonl");
  writeFileSync(jsonl, set.rows.map((row) => JSON.stringify(row)).join("\n"));
  const file = path.join(dir, `reference-${processes}.db`);
  return launch([path.join(here, "reference-server.mjs"), file, jsonl, String(processes)], dir);
}

/**
 * Our server on `store` with `workers` workers, `noop` embedder unless told, hygiene off (its
 * scheduled pruning would compete with the load); `nodeOptions` (e.g. `--cpu-prof`) go to node.
 * `BENCH_USAGE_TRACKING=false` turns recall ids and usage events off (`usage_tracking`), to
 * measure what recording them costs.
 */
export function ours(
  store: BenchStore,
  workers: number,
  options: { embedder?: string; nodeOptions?: string[] } = {},
): Promise<Running> {
  const embedder = options.embedder ?? "noop";
  // Beside the store's folder, not in it: a Markdown tree holds only its own files.
  const config = path.join(path.dirname(store.cwd), `memory-${store.backend}-${embedder}.toml`);
  const usage = process.env.BENCH_USAGE_TRACKING === "false" ? "false" : "true";
  writeFileSync(
    config,
    `[memory]\nbackend = "${store.backend}"\ndata_dir = "."\nembedding_provider = "${embedder}"\ndefer_embedding = true\nhygiene_enabled = false\nusage_tracking = ${usage}\n\n[server]\nmax_import_bytes = 1073741824\n\n${store.tables}`,
  );
  const main = process.env.BENCH_SERVER_MAIN ?? path.join(root, "dist/main.mjs");
  const args = [main, "--config", config, "--port", "0"];
  return launch(
    [...args, "--workers", String(workers), "--allow-unauthenticated-loopback"],
    store.cwd,
    options.nodeOptions,
  );
}

/**
 * The set's rows into our server, 1,000 per `POST /v1/import`, category `daily`; resolves to
 * the seconds it took (rows/s is what someone moving an existing memory in waits on).
 */
export async function importRows(url: string, set: BenchSet): Promise<number> {
  const started = performance.now();
  const lines = set.rows.map((row) => JSON.stringify({ ...row, category: "daily" }));
  for (let start = 0; start < lines.length; start += 1000) {
    const response = await fetch(`${url}/v1/import`, {
      method: "POST",
      body: lines.slice(start, start + 1000).join("\n"),
    });
    if (!response.ok) throw new Error(`import: HTTP ${response.status} ${await response.text()}`);
  }
  return (performance.now() - started) / 1000;
}
