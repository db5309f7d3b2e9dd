import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Worker, type WorkerOptions } from "node:worker_threads";

/**
 * Starts the `local` provider's worker thread.
 *
 * - Built package (this module is dist/*.mjs): runs dist/use-lite-worker.mjs, next to this chunk.
 * - Source (this module is src/local/*.ts, as under vitest or `tsx bench/...`): runs
 *   src/local/use-lite-worker.ts through tsx, so the worker is always the same code as its
 *   caller (never a stale build). `--import tsx` in a worker's execArgv does not work on
 *   Node 20 (tsx registers its hooks on the main thread only), so a tiny bootstrap calls tsx's
 *   `register()` inside the worker, then imports the entry.
 */
export function spawnUseLiteWorker(workerData: unknown): Worker {
  const options: WorkerOptions = {
    workerData,
    name: "@memory/embeddings local (USE lite)",
    execArgv: workerExecArgv(process.execArgv),
  };
  if (!import.meta.url.endsWith(".ts")) {
    // Written out literally so bundlers that understand this pattern can follow it.
    return new Worker(new URL("./use-lite-worker.mjs", import.meta.url), options);
  }
  const entry = new URL("./use-lite-worker.ts", import.meta.url).href;
  const bootstrap = [
    `import(${JSON.stringify(tsxApiUrl())})`,
    `.then(({ register }) => { register(); return import(${JSON.stringify(entry)}); });`,
  ].join("");
  return new Worker(bootstrap, { ...options, eval: true });
}

function tsxApiUrl(): string {
  const require = createRequire(fileURLToPath(import.meta.url));
  // The ESM build of tsx/esm/api (its "import" condition); require.resolve gives the .cjs twin.
  const packageDir = path.dirname(require.resolve("tsx/package.json"));
  return pathToFileURL(path.join(packageDir, "dist", "esm", "api", "index.mjs")).href;
}

/**
 * The parent's Node flags, as a worker would inherit them, minus `--input-type`: it is only valid
 * with `--eval`/stdin, and a worker started from `node --input-type=module -e ...` would fail
 * to load its entry file (ERR_INPUT_TYPE_NOT_ALLOWED).
 */
export function workerExecArgv(parent: readonly string[]): string[] {
  const kept: string[] = [];
  for (let index = 0; index < parent.length; index++) {
    const flag = parent[index] as string;
    if (flag === "--input-type") {
      index++; // and its value
      continue;
    }
    if (flag.startsWith("--input-type=")) continue;
    kept.push(flag);
  }
  return kept;
}
