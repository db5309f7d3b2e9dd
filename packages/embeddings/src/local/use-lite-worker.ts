/**
 * Worker-thread entry of the `local` provider: loads Universal Sentence Encoder lite and runs
 * every model run here, so the thread that owns `LocalEmbeddingProvider` never blocks on tfjs.
 * Built to dist/use-lite-worker.mjs; spawned by use-lite-provider.ts, never imported.
 */
import { parentPort, workerData } from "node:worker_threads";
import { UseLiteEngine } from "./use-lite-engine.js";
import type { LocalEmbeddingSettings } from "./use-lite-settings.js";
import { serializeError, type WorkerRequest, type WorkerResponse } from "./worker-protocol.js";

const port = parentPort;
if (port === null) throw new Error("use-lite-worker must run in a worker thread.");

const engine = new UseLiteEngine((workerData ?? {}) as LocalEmbeddingSettings);
const cancels = new Map<number, AbortController>();

function reply(response: WorkerResponse): void {
  if (response.ok) port?.postMessage(response, [response.data.buffer as ArrayBuffer]);
  else port?.postMessage(response);
}

type WorkRequest = Exclude<WorkerRequest, { type: "cancel" }>;

// One model run at a time, queries first: a recall waiting on its query vector must not sit
// behind a backlog of deferred document batches (measured: recall p99 3.3 s without this).
const queue: WorkRequest[] = [];
let running = false;

function next(): WorkRequest | undefined {
  const urgent = queue.findIndex((request) => request.type !== "embed" || request.query);
  // No query waiting (-1): the oldest request.
  return queue.splice(Math.max(urgent, 0), 1)[0];
}

async function pump(): Promise<void> {
  if (running) return;
  running = true;
  try {
    for (let request = next(); request !== undefined; request = next()) {
      await run(request);
      // A model run is synchronous: let the messages that arrived meanwhile into the queue
      // before choosing the next one, or a query would still wait behind older batches.
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  } finally {
    running = false;
  }
}

async function run(request: WorkRequest): Promise<void> {
  const controller =
    request.type === "embed" && request.cancellable ? new AbortController() : undefined;
  if (controller !== undefined) cancels.set(request.id, controller);
  try {
    if (request.type === "init") await engine.init();
    const vectors =
      request.type === "embed" ? await engine.embed(request.texts, controller?.signal) : [];
    const data = new Float64Array(vectors.reduce((total, vector) => total + vector.length, 0));
    let offset = 0;
    for (const vector of vectors) {
      data.set(vector, offset);
      offset += vector.length;
    }
    reply({ id: request.id, ok: true, rows: vectors.length, data });
  } catch (error) {
    reply({ id: request.id, ok: false, error: serializeError(error) });
  } finally {
    cancels.delete(request.id);
  }
}

port.on("message", (request: WorkerRequest) => {
  if (request.type === "cancel") {
    cancels.get(request.id)?.abort();
    const queued = queue.findIndex((item) => item.id === request.id);
    if (queued >= 0) queue.splice(queued, 1);
    return;
  }
  queue.push(request);
  void pump();
});
