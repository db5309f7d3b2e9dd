import type { McpClient } from "./mcp-clients.js";
import type { HttpEndpoint, TokenValue } from "./server-endpoint.js";

/** The name the server is registered under in every client. */
export const SERVER_NAME = "memory";

/** `memory mcp` over stdio: absolute paths, so the client can start it from any directory. */
export interface StdioTarget {
  transport: "stdio";
  command: string;
  args: string[];
}

export type McpTarget = StdioTarget | ({ transport: "http" } & HttpEndpoint);

/** What `--print-config` prints: a JSON document to paste into a file, or a command to run. */
export type ClientConfig =
  | { format: "json"; file: string; document: Record<string, unknown>; notes: string[] }
  | { format: "command"; argv: string[]; line: string; notes: string[] };

const PLACEHOLDER = "<token>";

/** Quotes one argument for a POSIX shell (only when it needs it). */
export function shellQuote(argument: string): string {
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(argument)) return argument;
  return `'${argument.replaceAll("'", `'\\''`)}'`;
}

/**
 * The token as one client can use it. `reference(name)` is the client's syntax for an
 * environment variable, or undefined when it expands none (then a placeholder is printed).
 */
function tokenText(
  token: TokenValue,
  reference: ((name: string) => string) | undefined,
  notes: string[],
  expandedBy = "the client, so it must be set where the client runs",
): string {
  if (token.kind === "literal") return token.value;
  if (token.kind === "env") {
    if (reference) {
      notes.push(
        `the token is referenced as the environment variable ${token.name} (not printed) and expanded by ${expandedBy}; pass --show-token to print the value instead.`,
      );
      return reference(token.name);
    }
    notes.push(
      `replace ${PLACEHOLDER} with the value of ${token.name} (this client does not expand variables), or pass --show-token to print it.`,
    );
    return PLACEHOLDER;
  }
  notes.push(
    `replace ${PLACEHOLDER} with the token configured in ${token.source}, or pass --show-token to print it (or --token <token>).`,
  );
  return PLACEHOLDER;
}

function stdioEntry(target: StdioTarget): Record<string, unknown> {
  return { command: target.command, args: target.args };
}

function jsonConfig(
  file: string,
  entry: Record<string, unknown>,
  notes: string[],
): Extract<ClientConfig, { format: "json" }> {
  return { format: "json", file, document: { mcpServers: { [SERVER_NAME]: entry } }, notes };
}

/** Claude Desktop: claude_desktop_config.json; remote servers go through the mcp-remote bridge. */
function claudeDesktop(target: McpTarget): ClientConfig {
  const file =
    "claude_desktop_config.json (macOS: ~/Library/Application Support/Claude/, Windows: %APPDATA%\\Claude\\)";
  const notes: string[] = [];
  if (target.transport === "stdio") return jsonConfig(file, stdioEntry(target), notes);
  // Claude Desktop's file starts local processes only; mcp-remote bridges to streamable HTTP.
  // The header goes through an env variable because Windows splits arguments on spaces.
  const args = ["-y", "mcp-remote", target.url];
  const entry: Record<string, unknown> = { command: "npx", args };
  if (target.token) {
    args.push("--header", `Authorization:\${AUTH_HEADER}`);
    entry.env = { AUTH_HEADER: `Bearer ${tokenText(target.token, undefined, notes)}` };
  }
  notes.push("Claude Desktop reaches HTTP servers through mcp-remote (run by npx, needs Node.js).");
  return jsonConfig(file, entry, notes);
}

/** Cursor: .cursor/mcp.json (project) or ~/.cursor/mcp.json; expands ${env:NAME}. */
function cursor(target: McpTarget): ClientConfig {
  const notes: string[] = [];
  const file = ".cursor/mcp.json (this project) or ~/.cursor/mcp.json (every project)";
  if (target.transport === "stdio") return jsonConfig(file, stdioEntry(target), notes);
  const entry: Record<string, unknown> = { url: target.url };
  if (target.token) {
    entry.headers = {
      Authorization: `Bearer ${tokenText(target.token, (name) => `\${env:${name}}`, notes)}`,
    };
  }
  return jsonConfig(file, entry, notes);
}

/** Any client that reads an `mcpServers` block; `${NAME}` is the common variable syntax. */
function generic(target: McpTarget): ClientConfig {
  const notes: string[] = [];
  const file = "the client's MCP configuration (an mcpServers block)";
  if (target.transport === "stdio") return jsonConfig(file, stdioEntry(target), notes);
  const entry: Record<string, unknown> = { type: "http", url: target.url };
  if (target.token) {
    entry.headers = {
      Authorization: `Bearer ${tokenText(target.token, (name) => `\${${name}}`, notes)}`,
    };
  }
  return jsonConfig(file, entry, notes);
}

/** Claude Code: one `claude mcp add` command line. */
function claudeCode(target: McpTarget): ClientConfig {
  const notes: string[] = [];
  if (target.transport === "stdio") {
    // `--` ends claude's own options: everything after it is the server's command line.
    const argv = ["claude", "mcp", "add", SERVER_NAME, "--", target.command, ...target.args];
    return { format: "command", argv, line: argv.map(shellQuote).join(" "), notes };
  }
  const argv = ["claude", "mcp", "add", "--transport", "http", SERVER_NAME, target.url];
  const line = argv.map(shellQuote);
  if (target.token) {
    // The shell expands a variable at `claude mcp add` time, so the printed line holds no secret.
    const text = tokenText(
      target.token,
      (name) => `\${${name}}`,
      notes,
      "your shell when you run this line, so it must be set there",
    );
    const header = `Authorization: Bearer ${text}`;
    argv.push("--header", header);
    line.push(
      "--header",
      target.token.kind === "env"
        ? `"Authorization: Bearer \${${target.token.name}}"`
        : shellQuote(header),
    );
  }
  return { format: "command", argv, line: line.join(" "), notes };
}

/** The configuration of `client` for `target`. */
export function clientConfig(client: McpClient, target: McpTarget): ClientConfig {
  switch (client) {
    case "claude-desktop":
      return claudeDesktop(target);
    case "claude-code":
      return claudeCode(target);
    case "cursor":
      return cursor(target);
    case "generic":
      return generic(target);
  }
}
