export type { MemoryContextData } from "./context-tool.js";
export { type CompactEntry, entryHeader, entryLine, snippetOf } from "./entry-text.js";
export {
  categoryInput,
  collectionNameInput,
  collectionsInput,
  contextInput,
  entitiesInput,
  entityInput,
  forgetInput,
  historyInput,
  knowledgeGraphInput,
  LIST_DEFAULT_LIMIT,
  listInput,
  namespaceInput,
  RECALL_DEFAULT_LIMIT,
  recallInput,
  relateInput,
  relationsInput,
  storeInput,
  supersedeInput,
  TOOL_INPUT_BOUNDS,
  unsupersedeInput,
  writeSessionIdInput,
} from "./input-schemas.js";
export { memoryToolDefinitions } from "./memory-tool-definitions.js";
export type { MemoryToolsOptions } from "./memory-tools-options.js";
export { LIST_ENTRY_MAX_CHARS, RESULT_MAX_CHARS } from "./result-bounds.js";
export { storedText } from "./store-tool.js";
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
export {
  ALL_MEMORY_TOOL_NAMES,
  type AnyMemoryToolName,
  type MemoryToolSpec,
  type MemoryToolSpecOptions,
  memoryToolSpec,
} from "./tool-specs.js";
export {
  feedbackInput,
  pinInput,
  snoozeForInput,
  snoozeForMs,
  snoozeInput,
  usageInput,
} from "./usage-inputs.js";
