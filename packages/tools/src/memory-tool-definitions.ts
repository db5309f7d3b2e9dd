import type { Memory } from "@memory/api";
import { contextTool } from "./context-tool.js";
import { forgetTool } from "./forget-tool.js";
import { listTool } from "./list-tool.js";
import {
  checkToolsOptions,
  type MemoryToolsOptions,
  namespaceScope,
} from "./memory-tools-options.js";
import { recallTool } from "./recall-tool.js";
import { storeTool } from "./store-tool.js";
import {
  type AnyMemoryToolDefinition,
  MEMORY_TOOL_NAMES,
  type MemoryToolName,
} from "./tool-definition.js";

/**
 * The memory tools over one `Memory`, framework-neutral: `memory_store`, `memory_recall`,
 * `memory_forget`, `memory_list` and `memory_context` (or those `options.tools` names), each with
 * its name, description, zod and JSON input schema, annotations and `execute`. The MCP server and
 * the framework adapters (`@memory/ai-sdk`, `@memory/openai-agents`) show models these, so the
 * descriptions and limits live once. Nothing is opened or called until a tool runs.
 */
export function memoryToolDefinitions(
  memory: Memory,
  options: MemoryToolsOptions = {},
): AnyMemoryToolDefinition[] {
  checkToolsOptions(options);
  const scope = namespaceScope(options);
  const build: Record<MemoryToolName, () => AnyMemoryToolDefinition> = {
    memory_store: () => storeTool(memory, options, scope),
    memory_recall: () => recallTool(memory, scope),
    memory_forget: () => forgetTool(memory, scope),
    memory_list: () => listTool(memory, scope),
    memory_context: () => contextTool(memory, options, scope),
  };
  const names = options.tools ?? MEMORY_TOOL_NAMES;
  return [...new Set(names)].map((name) => build[name]());
}
