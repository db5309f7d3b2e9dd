import cluster, { type Worker } from "node:cluster";
import { ConfigError } from "@memory/api";
import type { Logger } from "../logger.js";
import { isWorkerReady, type WorkerReady } from "./worker-messages.js";

export interface PrimaryOptions {
  /** Worker processes to run. */
  workers: number;
  /** True when the count was asked for (--workers, [server].workers): a store that cannot be shared is then an error, not a fallback to one worker. */
  explicit: boolean;
  logger: Logger;
  /** Each worker's own drain bound; the primary waits twice that (plus a margin) before SIGKILL. */
  shutdownTimeoutMs: number;
}

export interface PrimaryHandle {
  url: string;
  host: string;
  port: number;
  /** Workers serving now (fewer than asked when the store cannot be shared). */
  workers: number;
  /** The first worker's banner (`describe`). */
  description?: string;
  /** Starts the graceful shutdown of every worker (also what SIGTERM/SIGINT do). */
  close(): Promise<number>;
  /** Resolves with the exit code once every worker has exited after a shutdown. */
  closed: Promise<number>;
}

/** Forks one worker and waits for its ready message; rejects if it exits first. */
function forkReady(logger: Logger): Promise<{ worker: Worker; ready: WorkerReady }> {
  const worker = cluster.fork();
  return new Promise((resolve, reject) => {
    const onMessage = (message: unknown) => {
      if (!isWorkerReady(message)) return;
      worker.off("exit", onExit);
      worker.off("message", onMessage);
      logger.info(`worker ${worker.id} (pid ${message.pid}) listening on ${message.url}`);
      resolve({ worker, ready: message });
    };
    const onExit = (code: number | null, signal: string | null) => {
      worker.off("message", onMessage);
      reject(
        new Error(
          `worker ${worker.id} exited before it was ready (${signal ?? `exit code ${code}`}); its error is above.`,
        ),
      );
    };
    worker.on("message", onMessage);
    worker.once("exit", onExit);
  });
}

/**
 * The primary of `serve` with several workers (`node:cluster`). It opens no store: it forks the
 * workers, which share the listening port (the primary accepts connections and hands them out
 * round-robin), replaces a worker that dies, and drains them all on SIGTERM/SIGINT.
 *
 * The first worker starts alone: it runs the store's migrations and says whether the store can
 * be shared before the others open it, so N processes never race to create one schema.
 */
export async function runPrimary(options: PrimaryOptions): Promise<PrimaryHandle> {
  const { logger } = options;
  const live = new Set<Worker>();
  let stopping = false;
  let resolveClosed: (code: number) => void = () => {};
  const closed = new Promise<number>((resolve) => {
    resolveClosed = resolve;
  });

  const killAll = () => {
    for (const worker of live) worker.process.kill("SIGKILL");
  };

  const first = await forkReady(logger);
  live.add(first.worker);
  let count = options.workers;
  if (count > 1 && !first.ready.shareable) {
    const reason = `the ${first.ready.backend} backend keeps its data in one process (not persistent, or several processes cannot open it)`;
    if (options.explicit) {
      first.worker.process.kill("SIGKILL");
      throw new ConfigError(
        `Cannot serve with ${count} workers: ${reason}. Use --workers 1 ([server].workers = 1, MEMORY_SERVER_WORKERS=1), or a sqlite or postgres backend.`,
      );
    }
    logger.warn(`Serving with 1 worker: ${reason}.`);
    count = 1;
  }
  try {
    const rest = await Promise.all(Array.from({ length: count - 1 }, () => forkReady(logger)));
    for (const { worker } of rest) live.add(worker);
  } catch (error) {
    killAll();
    throw error;
  }

  cluster.on("exit", (worker, code, signal) => {
    if (!live.delete(worker)) return;
    if (stopping) {
      if (live.size === 0) resolveClosed(0);
      return;
    }
    // A dead worker's in-flight requests fail (the client sees a reset connection) but what it
    // acknowledged is committed: each write is a transaction done before the response is sent.
    logger.warn(
      `worker ${worker.id} (pid ${worker.process.pid}) died (${signal ?? `exit code ${code}`}); starting a replacement.`,
    );
    forkReady(logger).then(
      ({ worker: replacement }) => {
        if (stopping) replacement.send({ type: "memory:shutdown" });
        live.add(replacement);
        logger.info(`worker ${replacement.id} replaced worker ${worker.id}.`);
      },
      (error: unknown) => {
        // No retry loop: a replacement that cannot start would fail the same way again.
        logger.error(
          `the replacement of worker ${worker.id} failed to start; serving with ${live.size} worker(s)`,
          error,
        );
        if (live.size === 0 && !stopping) {
          stopping = true;
          resolveClosed(1);
        }
      },
    );
  });

  let closing: Promise<number> | undefined;
  const close = () => {
    closing ??= (async () => {
      stopping = true;
      if (live.size === 0) resolveClosed(0);
      for (const worker of live) worker.send({ type: "memory:shutdown" });
      // Each worker bounds its own drain (requests, then jobs, then embeddings); this is the
      // backstop for a worker that hangs anyway.
      const backstop = setTimeout(
        () => {
          logger.warn(`workers still running after the shutdown timeout: killing them.`);
          killAll();
        },
        options.shutdownTimeoutMs * 3 + 5_000,
      );
      const code = await closed;
      clearTimeout(backstop);
      return code;
    })();
    return closing;
  };

  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    process.on(signal, () => {
      if (closing) {
        logger.warn(`${signal} again: killing the workers now.`);
        killAll();
        process.exit(1);
      }
      logger.info(
        `${signal}: shutting down ${live.size} worker(s) (finishing requests, draining embeddings)...`,
      );
      void close();
    });
  }

  const handle: PrimaryHandle = {
    url: first.ready.url,
    host: first.ready.host,
    port: first.ready.port,
    workers: live.size,
    close,
    closed,
  };
  if (first.ready.description !== undefined) handle.description = first.ready.description;
  return handle;
}
