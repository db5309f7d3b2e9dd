/**
 * `@memory/server/context`: the memory context operation that `POST /v1/context` and the MCP
 * tool `memory_context` run, without hono or the MCP SDK, so that the CLI's `memory context`
 * runs the very same code (defaults, validation, response shape) and starts fast.
 */
export { type Access, FULL_ACCESS } from "./access.js";
export { type BuiltContext, buildContext, type ContextInput } from "./operations/recall.js";
export { ContextRequestSchema } from "./wire/requests.js";
