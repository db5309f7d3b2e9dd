import path from "node:path";
import { parseArgs } from "node:util";
import { MemoryError } from "@memory/api";
import { loadServerConfig } from "./load-server-config.js";
import { stderrLogger } from "./logger.js";
import { runMcpStdio } from "./mcp-stdio.js";
import { serve } from "./serve.js";
import type { ServerHandle } from "./start-server.js";
import { curlExamples } from "./try-examples.js";
import { VERSION } from "./version.js";

const HELP = `memory server ${VERSION}

Usage: node dist/main.mjs [options]

  --config, -c <file>               memory.toml (default: $MEMORY_CONFIG, else ./memory.toml, else defaults)
  --host <host>                     default [server].host or 127.0.0.1
  --port, -p <port>                 default [server].port or 8787 (0 = any free port)
  --workers, -w <n>                 worker processes sharing the port (default [server].workers, else
                                    the number of cores; 1 = serve in this process)
  --allow-unauthenticated-loopback  serve without tokens (loopback hosts only)
  --mcp                             serve MCP over stdin/stdout instead of HTTP
  --version, -v                     print the version
  --help, -h                        this help

Tokens: MEMORY_SERVER_TOKEN (every namespace), MEMORY_SERVER_TOKENS='[{"token":"...","namespaces":["a"]}]',
or [server].tokens in memory.toml. See apps/server/README.md.
`;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      config: { type: "string", short: "c" },
      host: { type: "string" },
      port: { type: "string", short: "p" },
      workers: { type: "string", short: "w" },
      "allow-unauthenticated-loopback": { type: "boolean" },
      mcp: { type: "boolean" },
      version: { type: "boolean", short: "v" },
      help: { type: "boolean", short: "h" },
    },
    strict: true,
  });
  if (values.help) {
    process.stdout.write(HELP);
    return;
  }
  if (values.version) {
    process.stdout.write(`${VERSION}\n`);
    return;
  }
  const { config, file } = loadServerConfig(values.config);

  if (values.mcp) {
    const handle = await runMcpStdio({ config });
    const stop = () => {
      void handle.close();
    };
    process.once("SIGTERM", stop);
    process.once("SIGINT", stop);
    await handle.closed;
    process.exit(0);
  }

  let port: number | undefined;
  if (values.port !== undefined) {
    port = Number(values.port);
    if (!Number.isInteger(port) || port < 0 || port > 65_535) {
      throw new Error(`--port must be an integer from 0 to 65535 (got "${values.port}").`);
    }
  }
  let workers: number | undefined;
  if (values.workers !== undefined) {
    workers = Number(values.workers);
    if (!Number.isInteger(workers) || workers < 1 || workers > 256) {
      throw new Error(`--workers must be an integer from 1 to 256 (got "${values.workers}").`);
    }
  }
  const served = await serve({
    config,
    ...(values.host !== undefined ? { host: values.host } : {}),
    ...(port !== undefined ? { port } : {}),
    ...(workers !== undefined ? { workers } : {}),
    ...(values["allow-unauthenticated-loopback"] ? { allowUnauthenticatedLoopback: true } : {}),
    describe: (server) => describeServer(server, file, config),
  });
  if (served.role !== "worker") {
    const workerLine =
      served.role === "primary"
        ? `  workers:      ${served.workers} processes (node:cluster, one port; --workers / [server].workers)\n`
        : "  workers:      1 (in this process)\n";
    const [first = "", ...rest] = (served.description ?? "").split("\n");
    process.stdout.write(`${first}\n${workerLine}${rest.join("\n")}`);
  }
  process.exit(await served.closed);
}

async function describeServer(
  server: ServerHandle,
  file: string | undefined,
  config: ReturnType<typeof loadServerConfig>["config"],
): Promise<string> {
  const health = await server.memory.healthCheck().catch(() => undefined);
  const store = health?.details.path ?? health?.details.file;
  const self = path.resolve(process.argv[1] ?? "dist/main.mjs");
  const stdioArgs = [self, "--mcp", ...(file ? ["--config", file] : [])];
  const stdioCommand = `node ${stdioArgs.join(" ")}`;
  const auth = server.settings.allowUnauthenticatedLoopback
    ? `none needed from this machine (unauthenticated loopback mode)${server.settings.tokens.length > 0 ? `; ${server.settings.tokens.length} token(s) also accepted` : ""}`
    : `bearer token required (${server.settings.tokens.length} configured)`;
  return [
    `memory server ${VERSION} listening on ${server.url}`,
    `  data:         ${config.memory.data_dir}${store ? ` (${server.memory.name}: ${String(store)})` : ` (${server.memory.name})`}`,
    `  config:       ${file ?? "defaults + MEMORY_* environment"}`,
    `  recall:       ${server.embedding ? `${server.embedding.mode}: ${server.embedding.detail}` : "?"}`,
    `  auth:         ${auth}`,
    `  jobs:         ${server.scheduler ? `${server.scheduler.jobNames.join(", ")} every ${config.memory.hygiene_interval_hours} h (status: GET ${server.url}/v1/jobs)` : "none (hygiene_enabled and snapshot_enabled are off)"}`,
    `  inspector:    ${server.url}/ui   (the web inspector: browse, search, explain and fix memories)`,
    `  HTTP API:     ${server.url}/v1   (OpenAPI: ${server.url}/openapi.json, health: ${server.url}/healthz)`,
    `  MCP (HTTP):   ${server.url}/mcp   (stateless: any worker answers any request)`,
    `  MCP (stdio):  ${stdioCommand}`,
    `                e.g. in an MCP client config: ${JSON.stringify({ command: "node", args: stdioArgs })}`,
    `  MCP clients:  memory${file ? ` --config ${file}` : ""} mcp --print-config claude-desktop   (or claude-code, cursor, generic; add --http for this server)`,
    "",
    ...curlExamples(server.url, server.settings).map(
      (line, index) => `${index === 0 ? "  try:  " : "        "}${line}`,
    ),
    "",
    "Ctrl-C stops the server (in-flight requests finish, pending embeddings are drained).",
    "",
  ].join("\n");
}

main().catch((error: unknown) => {
  if (
    MemoryError.isInstance(error) ||
    (error as { code?: string }).code?.startsWith("ERR_PARSE_ARGS")
  ) {
    process.stderr.write(`error: ${(error as Error).message}\n`);
  } else {
    stderrLogger.error("the server failed to start", error);
  }
  process.exit(1);
});
