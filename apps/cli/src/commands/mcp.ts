import type { CommandHandler } from "../cli/lazy-action.js";
import { loadModule, loadServer, untilSignal } from "../store/load-server.js";

/**
 * `memory mcp`: the MCP server over stdio, for agent hosts that spawn it. stdout belongs to the
 * protocol, so this command prints nothing there; it ends when the host closes stdin.
 */
const mcp: CommandHandler = async (context) => {
  const { config } = context.config();
  const { runMcpStdio } = await loadServer("memory mcp");
  const handle = await runMcpStdio({ config, loadModule });
  const stopped = await Promise.race([handle.closed.then(() => undefined), untilSignal()]);
  if (stopped !== undefined) await handle.close();
};

export default mcp;
