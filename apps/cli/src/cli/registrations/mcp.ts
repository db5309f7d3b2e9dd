import { MCP_CLIENTS } from "../../commands/mcp/mcp-clients.js";
import { defineCommand } from "./command-registration.js";

export const mcpCommand = defineCommand((parent, action) => {
  parent
    .command("mcp")
    .description("run the MCP server over stdio (delegates to @memory/server)")
    .option(
      "--print-config <client>",
      `print the configuration an MCP client needs instead of serving: ${MCP_CLIENTS.join(", ")}`,
    )
    .option("--http [url]", "with --print-config: the HTTP endpoint (default: [server] host/port)")
    .option("--token <token>", "with --http: the bearer token to print (printed as given)")
    .option("--show-token", "with --http: print the configured token instead of a reference")
    .action(action(() => import("../../commands/mcp.js")));
});
