export { CONTEXT_DESCRIPTION, type MemoryContextData } from "./context-tool.js";
export { type CompactEntry, entryLine, snippetOf } from "./entry-text.js";
export { FORGET_DESCRIPTION } from "./forget-tool.js";
export { LIST_DESCRIPTION } from "./list-tool.js";
export { memoryToolDefinitions } from "./memory-tool-definitions.js";
export type { MemoryToolsOptions } from "./memory-tools-options.js";
export { RECALL_DEFAULT_LIMIT, RECALL_DESCRIPTION } from "./recall-tool.js";
export { STORE_DESCRIPTION } from "./store-tool.js";
export {
  type AnyMemoryToolDefinition,
  type JsonSchema,
  MEMORY_TOOL_NAMES,
  type MemoryToolAnnotations,
  type MemoryToolCallOptions,
  type MemoryToolDefinition,
  type MemoryToolName,
  type MemoryToolResult,
} from "./tool-definition.js";
