import type { MemoryConfig } from "@memory/api";
import { UsageError } from "../../cli/cli-errors.js";

/**
 * How the bearer token appears in a printed configuration. A secret is printed only when the
 * user typed it (`--token`) or asked for it (`--show-token`); otherwise an environment variable
 * that holds it is referenced, or a placeholder stands in and a note says where the token is.
 */
export type TokenValue =
  | { kind: "literal"; value: string }
  | { kind: "env"; name: string }
  | { kind: "placeholder"; source: string };

export interface HttpEndpoint {
  url: string;
  /** Absent when the server is configured without tokens (unauthenticated loopback). */
  token?: TokenValue;
}

/** A configured token, before deciding whether its value may be printed. */
interface TokenSource {
  /** Where it is configured, for people: `[server].tokens[0] in /x/memory.toml`. */
  label: string;
  /** The environment variable that holds it, when it is read from one. */
  env?: string;
  value: string | undefined;
  allNamespaces: boolean;
}

interface ServerTable {
  host?: unknown;
  port?: unknown;
  tokens?: unknown;
}

/** `http://127.0.0.1:8787/mcp` from `[server].host/port` or MEMORY_SERVER_HOST/PORT. */
function configuredUrl(table: ServerTable, env: NodeJS.ProcessEnv): string {
  let host = env.MEMORY_SERVER_HOST || (typeof table.host === "string" ? table.host : "127.0.0.1");
  const port =
    env.MEMORY_SERVER_PORT || (typeof table.port === "number" ? String(table.port) : "8787");
  // A server bound to every interface is reached on loopback from this machine.
  if (host === "0.0.0.0") host = "127.0.0.1";
  if (host === "::") host = "::1";
  if (host.includes(":") && !host.startsWith("[")) host = `[${host}]`;
  return `http://${host}:${port}/mcp`;
}

/** `--http <url>`: a server address; a URL without a path gets the server's `/mcp` route. */
function givenUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(
      `--http ${JSON.stringify(value)} is not a URL: give the server's address, e.g. --http http://127.0.0.1:8787/mcp, or --http alone for the configured [server] host and port.`,
    );
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new UsageError(`--http needs an http:// or https:// URL (got ${url.protocol}).`);
  }
  if (url.pathname === "/" || url.pathname === "") url.pathname = "/mcp";
  return url.href;
}

/** Every token the server would accept, in the order the server reads them. */
function configuredTokens(
  table: ServerTable,
  file: string | undefined,
  env: NodeJS.ProcessEnv,
): TokenSource[] {
  const sources: TokenSource[] = [];
  const where = file ? ` in ${file}` : "";
  if (Array.isArray(table.tokens)) {
    table.tokens.forEach((entry: unknown, index) => {
      const { token, token_env, namespaces } = (entry ?? {}) as Record<string, unknown>;
      const allNamespaces = Array.isArray(namespaces) && namespaces.includes("*");
      const label = `[server].tokens[${index}]${where}`;
      if (typeof token_env === "string") {
        sources.push({ label, env: token_env, value: env[token_env], allNamespaces });
      } else if (typeof token === "string") {
        sources.push({ label, value: token, allNamespaces });
      }
    });
  }
  if (env.MEMORY_SERVER_TOKEN) {
    sources.push({
      label: "MEMORY_SERVER_TOKEN",
      env: "MEMORY_SERVER_TOKEN",
      value: env.MEMORY_SERVER_TOKEN,
      allNamespaces: true,
    });
  }
  if (env.MEMORY_SERVER_TOKENS) {
    try {
      const list = JSON.parse(env.MEMORY_SERVER_TOKENS) as {
        token?: string;
        namespaces?: string[];
      }[];
      list.forEach((entry, index) => {
        sources.push({
          label: `MEMORY_SERVER_TOKENS[${index}]`,
          value: entry.token,
          allNamespaces: entry.namespaces?.includes("*") === true,
        });
      });
    } catch {
      // The server itself reports a malformed MEMORY_SERVER_TOKENS when it starts.
    }
  }
  return sources;
}

export interface EndpointOptions {
  /** `--http` alone is `true`; `--http <url>` the URL. */
  http: string | true;
  token?: string;
  showToken?: boolean;
}

/**
 * The MCP endpoint of the HTTP server and the token to send. Token policy: `--token` is printed
 * as given; `--show-token` prints the configured token; otherwise a token held in an environment
 * variable is referenced by name (clients that expand variables get a working config, and the
 * printed text holds no secret), and any other token becomes a placeholder.
 */
export function resolveHttpEndpoint(
  config: MemoryConfig,
  file: string | undefined,
  options: EndpointOptions,
  env: NodeJS.ProcessEnv = process.env,
): { endpoint: HttpEndpoint; notes: string[] } {
  const table = (config.server ?? {}) as ServerTable;
  const url = options.http === true ? configuredUrl(table, env) : givenUrl(options.http);
  const notes: string[] = [];
  if (options.token !== undefined) {
    return { endpoint: { url, token: { kind: "literal", value: options.token } }, notes };
  }
  const sources = configuredTokens(table, file, env);
  // A token for every namespace serves an agent best; otherwise the first one configured.
  const source = sources.find((candidate) => candidate.allNamespaces) ?? sources[0];
  if (source === undefined) {
    if (options.showToken) {
      throw new UsageError(
        "--show-token: no server token is configured ([server].tokens, MEMORY_SERVER_TOKEN): pass one with --token <token>.",
      );
    }
    notes.push(
      "no server token is configured, so no Authorization header is printed: the server then needs allow_unauthenticated_loopback = true (loopback only); add a token to [server].tokens, or pass --token <token>.",
    );
    return { endpoint: { url }, notes };
  }
  if (options.showToken) {
    if (source.value === undefined || source.value === "") {
      throw new UsageError(
        `--show-token: the token ${source.label} is read from the environment variable ${source.env}, which is not set here: export ${source.env}=<token>, or pass --token <token>.`,
      );
    }
    return { endpoint: { url, token: { kind: "literal", value: source.value } }, notes };
  }
  if (source.env !== undefined) {
    return { endpoint: { url, token: { kind: "env", name: source.env } }, notes };
  }
  return { endpoint: { url, token: { kind: "placeholder", source: source.label } }, notes };
}
