import cluster from "node:cluster";
import { availableParallelism } from "node:os";
import { runPrimary } from "./cluster/cluster-primary.js";
import { runWorker } from "./cluster/cluster-worker.js";
import { stderrLogger } from "./logger.js";
import { assertSafeAuth, resolveServerSettings } from "./server-settings.js";
import { type ServerHandle, type StartServerOptions, startServer } from "./start-server.js";

export interface ServeOptions extends Omit<StartServerOptions, "handleSignals" | "workerId"> {
  /**
   * A banner for the operator, computed from the first worker's handle (or this process's when
   * it serves alone); returned as `description`.
   */
  describe?: (handle: ServerHandle) => string | Promise<string>;
}

export interface ServeHandle {
  /**
   * `in-process`: this process serves (one worker). `primary`: this process supervises
   * `workers` cluster workers. `worker`: this process is one of them; its caller prints nothing
   * and only awaits `closed`.
   */
  role: "in-process" | "primary" | "worker";
  url: string;
  host: string;
  port: number;
  workers: number;
  description?: string;
  /** Resolves with the process exit code once serving has stopped (after SIGTERM/SIGINT). */
  closed: Promise<number>;
}

/**
 * The entry point of a long-running server process (`memory serve`, the server's main,
 * `npm start`): with one worker (`--workers 1`, `[server].workers = 1`,
 * MEMORY_SERVER_WORKERS=1) it serves in this process as `startServer` does; with more (default:
 * the number of cores) this process becomes a `node:cluster` primary and forks that many
 * workers, each re-running the same command. It handles SIGTERM/SIGINT itself: call it only
 * from a process's main, never from a library.
 */
export async function serve(options: ServeOptions = {}): Promise<ServeHandle> {
  const { describe, ...startOptions } = options;
  const logger = options.logger ?? stderrLogger;
  const settings = resolveServerSettings(options.config, options.env ?? process.env, options);

  if (cluster.isWorker) {
    await runWorker(startOptions, describe);
    // The worker exits from its shutdown handler; this promise only keeps the caller waiting.
    return {
      role: "worker",
      url: "",
      host: settings.host,
      port: settings.port,
      workers: 1,
      closed: new Promise<number>(() => {}),
    };
  }

  const workers = settings.workers ?? availableParallelism();
  if (workers === 1) {
    let resolveClosed: (code: number) => void = () => {};
    const closed = new Promise<number>((resolve) => {
      resolveClosed = resolve;
    });
    const handle = await startServer({ ...startOptions, handleSignals: false });
    for (const signal of ["SIGTERM", "SIGINT"] as const) {
      process.on(signal, () => {
        if (closing) {
          logger.warn(`${signal} again: exiting now.`);
          process.exit(1);
        }
        logger.info(`${signal}: shutting down (finishing requests, draining embeddings)...`);
        closing = handle.close().then(
          () => resolveClosed(0),
          (error: unknown) => {
            logger.error("shutdown failed", error);
            resolveClosed(1);
          },
        );
      });
    }
    let closing: Promise<void> | undefined;
    const served: ServeHandle = {
      role: "in-process",
      url: handle.url,
      host: handle.host,
      port: handle.port,
      workers: 1,
      closed,
    };
    if (describe) served.description = await describe(handle);
    return served;
  }

  // Check auth before forking: a missing token fails once, here, not in N workers.
  assertSafeAuth(settings);
  const primary = await runPrimary({
    workers,
    explicit: settings.workers !== undefined,
    logger,
    shutdownTimeoutMs: settings.shutdownTimeoutMs,
  });
  const served: ServeHandle = {
    role: "primary",
    url: primary.url,
    host: primary.host,
    port: primary.port,
    workers: primary.workers,
    closed: primary.closed,
  };
  if (primary.description !== undefined) served.description = primary.description;
  return served;
}
