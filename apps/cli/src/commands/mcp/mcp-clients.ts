/** The MCP clients `memory mcp --print-config <client>` writes a configuration for. */
export const MCP_CLIENTS = ["claude-desktop", "claude-code", "cursor", "generic"] as const;

export type McpClient = (typeof MCP_CLIENTS)[number];
