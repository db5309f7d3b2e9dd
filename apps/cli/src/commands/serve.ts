import type { CommandHandler } from "../cli/lazy-action.js";
import { loadModule, loadServer, untilSignal } from "../store/load-server.js";

export interface ServeOptions {
  host?: string;
  port?: number;
  allowUnauthenticatedLoopback?: boolean;
}

/**
 * `memory serve`: the HTTP JSON API (+ MCP at /mcp) of @memory/server with this run's
 * configuration. Runs until SIGINT/SIGTERM, then shuts down gracefully (in-flight requests
 * finish, deferred embeddings drain).
 */
const serve: CommandHandler<ServeOptions> = async (context, _args, options) => {
  const { host, port, allowUnauthenticatedLoopback } = options;
  const { config } = context.config();
  const { startServer } = await loadServer("memory serve");
  const handle = await startServer({
    config,
    loadModule,
    ...(host === undefined ? {} : { host }),
    ...(port === undefined ? {} : { port }),
    ...(allowUnauthenticatedLoopback ? { allowUnauthenticatedLoopback: true } : {}),
  });
  // Scripts (and tests) that ask for port 0 learn the real address from this line.
  context.output.result(
    { url: handle.url, host: handle.host, port: handle.port },
    () => `memory server listening on ${handle.url} (Ctrl-C to stop)`,
  );
  const signal = await untilSignal();
  context.output.note(`${signal}: shutting down`);
  await handle.close();
};

export default serve;
