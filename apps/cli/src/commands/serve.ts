import { EXIT_CODES } from "../cli/exit-codes.js";
import type { CommandHandler } from "../cli/lazy-action.js";
import { loadModule, loadServer } from "../store/load-server.js";

export interface ServeOptions {
  host?: string;
  port?: number;
  workers?: number;
  allowUnauthenticatedLoopback?: boolean;
}

/**
 * `memory serve`: the HTTP JSON API (+ MCP at /mcp) of @memory/server with this run's
 * configuration, on `--workers` processes (default: the number of cores; each worker re-runs
 * this command as a cluster worker). Runs until SIGINT/SIGTERM, then shuts down gracefully
 * (in-flight requests finish, deferred embeddings drain).
 */
const serve: CommandHandler<ServeOptions> = async (context, _args, options) => {
  const { host, port, workers, allowUnauthenticatedLoopback } = options;
  const { config } = context.config();
  const server = await loadServer("memory serve");
  const handle = await server.serve({
    config,
    loadModule,
    ...(host === undefined ? {} : { host }),
    ...(port === undefined ? {} : { port }),
    ...(workers === undefined ? {} : { workers }),
    ...(allowUnauthenticatedLoopback ? { allowUnauthenticatedLoopback: true } : {}),
  });
  if (handle.role !== "worker") {
    // Scripts (and tests) that ask for port 0 learn the real address from this line.
    context.output.result(
      { url: handle.url, host: handle.host, port: handle.port, workers: handle.workers },
      () =>
        `memory server listening on ${handle.url} with ${handle.workers} worker${handle.workers === 1 ? "" : "s"}; web inspector: ${handle.url}/ui (Ctrl-C to stop)`,
    );
  }
  const code = await handle.closed;
  if (code !== 0) context.exitCode = EXIT_CODES.failure;
};

export default serve;
