import { createRequire } from "node:module";
import path from "node:path";
import { importOptional } from "../http/optional-import.js";

export type TfCore = typeof import("@tensorflow/tfjs-core");
export type TfConverter = typeof import("@tensorflow/tfjs-converter");

export interface TfRuntime {
  tf: TfCore;
  converter: TfConverter;
}

// tfjs keeps one engine per process (on globalThis) with one active backend, so its set-up is
// memoised process-wide too: a registry symbol lets two copies of this package share it instead
// of re-initialising the backend under each other's feet.
const RUNTIME_KEY = Symbol.for("@memory/embeddings.tfjs-wasm-runtime");
type GlobalWithRuntime = typeof globalThis & { [RUNTIME_KEY]?: Promise<TfRuntime> };

/**
 * Loads tfjs-core + tfjs-converter with the WebAssembly backend (portable, no native build,
 * unlike tfjs-node). The backend's .wasm binaries are read from the installed package directory;
 * without `setWasmPaths` tfjs would try to fetch them from a CDN.
 */
export function tfjsRuntime(): Promise<TfRuntime> {
  const store = globalThis as GlobalWithRuntime;
  let runtime = store[RUNTIME_KEY];
  if (runtime === undefined) {
    runtime = initialise();
    store[RUNTIME_KEY] = runtime;
    runtime.catch(() => {
      if (store[RUNTIME_KEY] === runtime) delete store[RUNTIME_KEY];
    });
  }
  return runtime;
}

async function initialise(): Promise<TfRuntime> {
  const purpose = "The local embedding provider";
  const tf = await importOptional(
    "@tensorflow/tfjs-core",
    purpose,
    () => import("@tensorflow/tfjs-core"),
  );
  const converter = await importOptional(
    "@tensorflow/tfjs-converter",
    purpose,
    () => import("@tensorflow/tfjs-converter"),
  );
  const wasm = await importOptional(
    "@tensorflow/tfjs-backend-wasm",
    purpose,
    () => import("@tensorflow/tfjs-backend-wasm"),
  );
  if (tf.getBackend() !== "wasm") {
    const require = createRequire(import.meta.url);
    const packageJson = require.resolve("@tensorflow/tfjs-backend-wasm/package.json");
    // A directory prefix with a trailing separator: tfjs appends the .wasm file names to it.
    wasm.setWasmPaths(`${path.join(path.dirname(packageJson), "dist")}${path.sep}`);
    const ok = await tf.setBackend("wasm");
    if (!ok) throw new Error("tfjs could not initialise the wasm backend");
  }
  await tf.ready();
  return { tf, converter };
}
