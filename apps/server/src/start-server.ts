import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createAdaptorServer } from "@hono/node-server";
import { type ChatModel, ConfigError, type Memory, type MemoryConfig } from "@memory/api";
import { defaultConfig } from "@memory/core";
import { resolveChatModel } from "@memory/embeddings";
import {
  CollectionWatcher,
  type CollectionWatcherOptions,
  collectionsFromConfig,
  configuredJobs,
  JobScheduler,
  type JobSchedulerOptions,
  memoryContextOptionsFromConfig,
} from "@memory/lifecycle";
import { createHttpApp } from "./http-app.js";
import { type Logger, stderrLogger } from "./logger.js";
import { type OpenedMemory, openMemory } from "./open-memory.js";
import {
  assertSafeAuth,
  resolveServerSettings,
  type ServerSettings,
  type ServerSettingsOverrides,
} from "./server-settings.js";
import { VERSION } from "./version.js";

export interface StartServerOptions extends ServerSettingsOverrides {
  /** The loaded configuration (`[memory]` + `[server]`); default: defaults + environment. */
  config?: MemoryConfig;
  /** Serve this memory instead of opening the configured one. The server does not close it. */
  memory?: Memory;
  /** Environment for `MEMORY_SERVER_*`; default `process.env`. */
  env?: Record<string, string | undefined>;
  logger?: Logger;
  /** Close gracefully on SIGTERM/SIGINT, then exit the process. Default false (libraries must not). */
  handleSignals?: boolean;
  loadModule?: (specifier: string) => Promise<unknown>;
  /**
   * Run the configuration's maintenance jobs (hygiene, snapshot, curate with a chat model, transcripts) in this process, each under a
   * lease so several servers on one store share them. Default: on when the server opens the
   * memory, off when `memory` is passed in. An object turns it on with scheduler overrides
   * (clock, sleep, tick, jobs: for tests and embedders).
   */
  jobs?: boolean | Partial<Omit<JobSchedulerOptions, "memory">>;
  /**
   * Keep the collections fresh in this process: sync them at start, then watch their folders
   * (debounced). Default: on when the server opens the memory, off when `memory` is passed in;
   * an object turns it on with watcher overrides (timers, for tests).
   */
  watchCollections?: boolean | Omit<CollectionWatcherOptions, "configured">;
  /**
   * The chat model of `POST /v1/remember`, the MCP tool `memory_remember` and the jobs that need
   * one (curate, transcripts). Default: what `chat_provider` resolves to (`resolveChatModel`),
   * resolved once here; null: none.
   */
  chatModel?: ChatModel | null;
  /**
   * This process's worker id when it is one of several (`serve` with workers > 1): sent as the
   * `x-memory-worker` response header and named in the job-tick log lines.
   */
  workerId?: string;
}

export interface ServerHandle {
  /** `http://host:port`, with the real port when 0 was asked for. */
  url: string;
  host: string;
  port: number;
  memory: Memory;
  settings: ServerSettings;
  /** How recall runs (only when the server opened the memory). */
  embedding?: OpenedMemory["embedding"];
  /** The maintenance-job scheduler, when this server runs one. */
  scheduler?: JobScheduler;
  /**
   * Graceful shutdown: stop accepting connections, let in-flight requests finish (up to
   * `shutdownTimeoutMs`), let a running maintenance job finish (same bound), drain deferred embeddings (`memory.flush`), close the memory if the
   * server opened it. Idempotent.
   */
  close(): Promise<void>;
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      server.off("listening", onListening);
      if (error.code === "EADDRINUSE") {
        reject(
          new ConfigError(
            `Port ${port} on ${host} is already in use: stop the other process or pick another port (--port, [server].port, MEMORY_SERVER_PORT).`,
            { cause: error },
          ),
        );
      } else if (error.code === "EADDRNOTAVAIL" || error.code === "ENOTFOUND") {
        reject(
          new ConfigError(`Cannot listen on ${host}: it is not an address of this machine.`, {
            cause: error,
          }),
        );
      } else {
        reject(error);
      }
    };
    const onListening = () => {
      server.off("error", onError);
      resolve();
    };
    server.once("error", onError);
    server.once("listening", onListening);
    server.listen(port, host);
  });
}

function urlHost(host: string): string {
  return host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
}

/**
 * Starts the HTTP API + MCP server. Refuses to start without tokens unless unauthenticated
 * loopback mode is switched on explicitly (and the host is loopback).
 */
export async function startServer(options: StartServerOptions = {}): Promise<ServerHandle> {
  const logger = options.logger ?? stderrLogger;
  const settings = resolveServerSettings(options.config, options.env ?? process.env, options);
  assertSafeAuth(settings);

  const config = options.config ?? defaultConfig();
  // Checked before anything opens: a bad [collections.*] table fails the start with its name.
  const configured = collectionsFromConfig(config);
  // Resolved once (nothing is loaded or called yet) and shared by the routes, MCP and the jobs;
  // before the memory opens, so a bad chat_provider leaves nothing open.
  const chatModel =
    options.chatModel === undefined ? resolveChatModel(config.memory) : options.chatModel;

  let memory = options.memory;
  let embedding: OpenedMemory["embedding"] | undefined;
  const owned = memory === undefined;
  if (!memory) {
    const opened = await openMemory(config, {
      logger,
      probeTimeoutMs: settings.embeddingProbeTimeoutMs,
      ...(options.loadModule ? { loadModule: options.loadModule } : {}),
    });
    memory = opened.memory;
    embedding = opened.embedding;
  }
  const served = memory;

  let shuttingDown = false;
  const app = createHttpApp({
    memory: served,
    tokens: settings.tokens,
    allowUnauthenticated: settings.allowUnauthenticatedLoopback,
    maxBodyBytes: settings.maxBodyBytes,
    maxImportBytes: settings.maxImportBytes,
    mcp: settings.mcp,
    accessLog: settings.accessLog,
    logger,
    isShuttingDown: () => shuttingDown,
    version: VERSION,
    contextDefaults: memoryContextOptionsFromConfig(config.memory),
    chatModel,
    turnSettings: {
      conflictThreshold: config.memory.conflict_threshold,
      rememberRetries: config.memory.remember_retries,
    },
    collections: { configured, roots: settings.collectionRoots },
    ...(options.workerId !== undefined ? { workerId: options.workerId } : {}),
  });
  const server = createAdaptorServer({ fetch: app.fetch }) as Server;
  try {
    await listen(server, settings.port, settings.host);
  } catch (error) {
    if (owned) await served.close().catch(() => {});
    throw error;
  }
  const { port } = server.address() as AddressInfo;

  const jobs = options.jobs ?? owned;
  let scheduler: JobScheduler | undefined;
  if (jobs !== false) {
    const overrides = jobs === true ? {} : jobs;
    const scheduled = overrides.jobs ?? configuredJobs(config, { chatModel });
    if (scheduled.length > 0) {
      const workerId = options.workerId;
      let ticks = 0;
      scheduler = new JobScheduler({
        logger,
        drainTimeoutMs: settings.shutdownTimeoutMs,
        // Workers share the jobs through their leases; this line says which worker ran what:
        // the first tick always, later ones only when a job was due (not every idle minute).
        ...(workerId !== undefined
          ? {
              onTick: (outcomes: Record<string, string>) => {
                const values = Object.values(outcomes);
                if (ticks++ > 0 && values.every((outcome) => outcome === "not-due")) return;
                logger.info(
                  `worker ${workerId}: jobs tick: ${Object.entries(outcomes)
                    .map(([name, outcome]) => `${name}=${outcome}`)
                    .join(", ")}`,
                );
              },
            }
          : {}),
        ...overrides,
        memory: served,
        jobs: scheduled,
      });
      scheduler.start();
    }
  }

  const watching = options.watchCollections ?? owned;
  let watcher: CollectionWatcher | undefined;
  if (watching !== false) {
    watcher = new CollectionWatcher(served, {
      onError: (error) =>
        logger.warn(`collections: ${error instanceof Error ? error.message : String(error)}`),
      onSync: (reports) => {
        for (const report of reports)
          if (report.error || report.problems.length > 0)
            logger.warn(
              `collection ${report.collection}: ${report.error?.message ?? `${report.problems.length} file problem(s); \`memory collection sync ${report.collection}\` lists them`}`,
            );
      },
      ...(watching === true ? {} : watching),
      configured,
    });
    // The first sync of a large folder takes a while: the server answers meanwhile.
    void watcher.start();
  }

  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      shuttingDown = true;
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      // Idle keep-alive sockets would hold close() open; in-flight requests are left to finish.
      server.closeIdleConnections();
      let timer: NodeJS.Timeout | undefined;
      const timedOut = new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(true), settings.shutdownTimeoutMs);
      });
      if (await Promise.race([stopped.then(() => false), timedOut])) {
        logger.warn(
          `Requests still running after ${settings.shutdownTimeoutMs} ms; closing their connections.`,
        );
        server.closeAllConnections();
        await stopped;
      }
      clearTimeout(timer);
      await scheduler?.stop();
      await watcher?.close();
      try {
        await served.flush({ timeoutMs: settings.shutdownTimeoutMs });
      } catch (error) {
        logger.warn(
          `Deferred embeddings did not finish (${(error as Error).message}); they are stored without vectors and \`memory backfill\` adds them later.`,
        );
      }
      if (owned) await served.close();
      for (const [signal, handler] of signalHandlers) process.off(signal, handler);
    })();
    return closing;
  };

  const signalHandlers: [NodeJS.Signals, () => void][] = [];
  if (options.handleSignals) {
    for (const signal of ["SIGTERM", "SIGINT"] as const) {
      const handler = () => {
        if (closing) {
          logger.warn(`${signal} again: exiting now.`);
          process.exit(1);
        }
        logger.info(`${signal}: shutting down (finishing requests, draining embeddings)...`);
        close().then(
          () => process.exit(0),
          (error) => {
            logger.error("shutdown failed", error);
            process.exit(1);
          },
        );
      };
      process.on(signal, handler);
      signalHandlers.push([signal, handler]);
    }
  }

  const handle: ServerHandle = {
    url: `http://${urlHost(settings.host)}:${port}`,
    host: settings.host,
    port,
    memory: served,
    settings,
    close,
  };
  if (embedding) handle.embedding = embedding;
  if (scheduler) handle.scheduler = scheduler;
  return handle;
}
