import { UsageError } from "../cli/cli-errors.js";
import type { CommandHandler } from "../cli/lazy-action.js";
import { loadModule, loadServer, untilSignal } from "../store/load-server.js";
import type { PrintConfigOptions } from "./mcp/print-config.js";

export type McpOptions = Partial<PrintConfigOptions>;

/**
 * `memory mcp`: the MCP server over stdio, for agent hosts that spawn it. stdout belongs to the
 * protocol, so this command prints nothing there; it ends when the host closes stdin.
 * `memory mcp --print-config <client>` prints the client configuration that starts it instead.
 */
const mcp: CommandHandler<McpOptions> = async (context, _args, options) => {
  const { printConfig, http, token, showToken } = options;
  if (printConfig !== undefined) {
    const { printConfig: print } = await import("./mcp/print-config.js");
    await print(context, {
      printConfig,
      ...(http === undefined ? {} : { http }),
      ...(token === undefined ? {} : { token }),
      ...(showToken ? { showToken } : {}),
    });
    return;
  }
  if (http !== undefined || token !== undefined || showToken) {
    throw new UsageError(
      "--http, --token and --show-token only go with --print-config <client> (memory mcp itself serves stdio; `memory serve` serves HTTP).",
    );
  }
  const { config } = context.config();
  const { runMcpStdio } = await loadServer("memory mcp");
  const handle = await runMcpStdio({ config, loadModule });
  const stopped = await Promise.race([handle.closed.then(() => undefined), untilSignal()]);
  if (stopped !== undefined) await handle.close();
};

export default mcp;
