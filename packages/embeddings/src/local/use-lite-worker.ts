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

async function handle(request: WorkerRequest): Promise<void> {
  if (request.type === "cancel") {
    cancels.get(request.id)?.abort();
    return;
  }
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
  void handle(request);
});
