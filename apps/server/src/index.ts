export { type Access, FULL_ACCESS } from "./access.js";
export type { TurnSettings } from "./agent-turns.js";
export { createHttpApp, type HttpAppOptions } from "./http-app.js";
export { type ErrorBody, type ErrorCode, HttpError, STATUS_BY_CODE } from "./http-error.js";
export { loadServerConfig, type ServerConfig } from "./load-server-config.js";
export { type Logger, silentLogger, stderrLogger } from "./logger.js";
export { createMcpServer, type McpServerOptions } from "./mcp-server.js";
export { type McpStdioHandle, type RunMcpStdioOptions, runMcpStdio } from "./mcp-stdio.js";
export { type OpenedMemory, type OpenMemoryOptions, openMemory } from "./open-memory.js";
export { buildOpenApiDocument } from "./openapi.js";
export { routes } from "./routes/index.js";
export { type ServeHandle, type ServeOptions, serve } from "./serve.js";
export {
  assertSafeAuth,
  isLoopbackHost,
  resolveServerSettings,
  type ServerSettings,
  type ServerSettingsOverrides,
  serverSettingsSchema,
  type TokenSpec,
} from "./server-settings.js";
export { type ServerHandle, type StartServerOptions, startServer } from "./start-server.js";
export { VERSION } from "./version.js";
