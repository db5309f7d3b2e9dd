import cluster from "node:cluster";
import { type ServerHandle, type StartServerOptions, startServer } from "../start-server.js";
import { isWorkerShutdown, type WorkerReady } from "./worker-messages.js";

/**
 * One worker of `serve`: opens its own memory (its own SQLite connection or PostgreSQL pool,
 * its own embedding model), listens on the port the primary shares, and reports ready. It
 * shuts down gracefully when the primary says so, on SIGTERM sent to it alone, or when the
 * primary disappears. SIGINT is left to the primary: Ctrl-C reaches the whole process group,
 * and the primary then asks every worker in turn, once.
 */
export async function runWorker(
  options: StartServerOptions,
  describe?: (handle: ServerHandle) => string | Promise<string>,
): Promise<void> {
  const worker = cluster.worker;
  if (!worker) throw new Error("runWorker() must run in a cluster worker process.");
  const logger = options.logger;
  const handle = await startServer({
    ...options,
    handleSignals: false,
    workerId: String(worker.id),
  });
  const { capabilities } = handle.memory;
  const ready: WorkerReady = {
    type: "memory:ready",
    url: handle.url,
    host: handle.host,
    port: handle.port,
    pid: process.pid,
    backend: handle.memory.name,
    shareable: capabilities.multiInstance && capabilities.persistent,
  };
  if (describe) ready.description = await describe(handle);

  let closing = false;
  const shutdown = () => {
    if (closing) return;
    closing = true;
    handle.close().then(
      () => process.exit(0),
      (error: unknown) => {
        (logger?.error ?? console.error)(`worker ${worker.id}: shutdown failed`, error);
        process.exit(1);
      },
    );
  };
  process.on("message", (message) => {
    if (isWorkerShutdown(message)) shutdown();
  });
  process.on("SIGTERM", shutdown);
  process.on("SIGINT", () => {});
  // The primary died (SIGKILL): nobody would replace or stop this worker.
  worker.on("disconnect", shutdown);
  process.send?.(ready);
}
