import type { Memory } from "@memory/api";
import {
  type MEMORY_TOOL_NAMES,
  type MemoryToolName,
  type MemoryToolResult,
  type MemoryToolsOptions,
  memoryToolDefinitions,
} from "@memory/tools";
import { type Tool, tool } from "ai";

/** One memory tool as the AI SDK sees it: the output is the text and the data. */
export type MemoryTool = Tool<Record<string, unknown>, MemoryToolResult<unknown>>;

/**
 * The memory tools (`memory_store`, `memory_recall`, `memory_forget`, `memory_list`,
 * `memory_context`, or those `options.tools` names) as AI SDK tools, keyed by name, for
 * `generateText({ tools })`, `streamText` or an `Agent`. Names, descriptions and input schemas
 * are `@memory/tools`' (the MCP server's). The model reads a tool's result as text; the
 * structured result is the tool output's `data` (in `toolResults`). A failure (bad input, a
 * closed store) becomes the AI SDK's tool error, which the model sees and can act on.
 */
export function memoryTools<
  const Names extends readonly MemoryToolName[] = typeof MEMORY_TOOL_NAMES,
>(
  memory: Memory,
  options: MemoryToolsOptions & { tools?: Names } = {},
): Record<Names[number], MemoryTool> {
  // Keyed by the names asked for, so `toolResults[i].output` is typed `{ text, data }`.
  const tools = {} as Record<Names[number], MemoryTool>;
  for (const definition of memoryToolDefinitions(memory, options)) {
    tools[definition.name as Names[number]] = tool<
      Record<string, unknown>,
      MemoryToolResult<unknown>
    >({
      title: definition.title,
      description: definition.description,
      inputSchema: definition.inputSchema,
      execute: (input, { abortSignal }) =>
        definition.execute(input, abortSignal === undefined ? {} : { signal: abortSignal }),
      toModelOutput: ({ output }) => ({ type: "text", value: output.text }),
    });
  }
  return tools;
}
