export {
  type MemoryMiddlewareOptions,
  memoryMiddleware,
} from "./memory-middleware.js";
export { type MemoryTool, memoryTools } from "./memory-tools.js";
export type { ContextPosition } from "./prompt-parts.js";
