import { realpathSync } from "node:fs";
import path from "node:path";
import { UsageError } from "../../cli/cli-errors.js";
import type { CommandContext } from "../../cli/command-context.js";
import { clientConfig, type McpTarget } from "./client-config.js";
import { MCP_CLIENTS, type McpClient } from "./mcp-clients.js";
import { resolveHttpEndpoint } from "./server-endpoint.js";

export interface PrintConfigOptions {
  printConfig: string;
  http?: string | true;
  token?: string;
  showToken?: boolean;
}

/** The running CLI's entry file, symlinks resolved (`node_modules/.bin/memory` is one). */
function cliEntry(): string {
  const entry = path.resolve(process.argv[1] ?? "memory");
  try {
    return realpathSync(entry);
  } catch {
    return entry;
  }
}

/**
 * `memory mcp --print-config <client>`: the configuration an MCP client needs to reach this
 * store, over stdio (this node and this CLI, by absolute path, with `--config` when a file was
 * used) or over HTTP (`--http [url]`). The configuration goes to stdout; notes (what to replace,
 * where the file lives) go to stderr, so `> file` captures only what parses.
 */
export async function printConfig(
  context: CommandContext,
  options: PrintConfigOptions,
): Promise<void> {
  const client = options.printConfig;
  if (!(MCP_CLIENTS as readonly string[]).includes(client)) {
    throw new UsageError(
      `unknown MCP client ${JSON.stringify(client)}: expected one of ${MCP_CLIENTS.join(", ")}.`,
    );
  }
  const { config, location } = context.config();
  const notes: string[] = [];
  let target: McpTarget;
  if (options.http === undefined) {
    const args = [cliEntry(), ...(location.file ? ["--config", location.file] : []), "mcp"];
    target = { transport: "stdio", command: process.execPath, args };
    // The client starts the server with its own environment, not this shell's.
    const overrides = Object.keys(process.env).filter(
      (name) => name.startsWith("MEMORY_") && process.env[name],
    );
    if (overrides.length > 0) {
      notes.push(
        `${overrides.join(", ")} ${overrides.length === 1 ? "is" : "are"} set in this shell but not in the client's environment: move the setting${overrides.length === 1 ? "" : "s"} into ${location.file ?? "memory.toml"}, or add an "env" block to the client's entry.`,
      );
    }
  } else {
    const resolved = resolveHttpEndpoint(config, location.file, {
      http: options.http,
      ...(options.token === undefined ? {} : { token: options.token }),
      ...(options.showToken ? { showToken: true } : {}),
    });
    target = { transport: "http", ...resolved.endpoint };
    notes.push(...resolved.notes);
  }
  const result = clientConfig(client as McpClient, target);
  notes.push(...result.notes);
  if (target.transport === "http") {
    notes.push(`the server must be running: \`memory serve\` (MCP at ${target.url}).`);
  }
  if (result.format === "json") {
    context.output.result(
      { client, transport: target.transport, file: result.file, config: result.document },
      () => JSON.stringify(result.document, null, 2),
    );
    context.output.note(`# paste into ${result.file}`);
  } else {
    context.output.result(
      { client, transport: target.transport, argv: result.argv, command: result.line },
      () => result.line,
    );
  }
  for (const note of notes) context.output.note(`# ${note}`);
}
