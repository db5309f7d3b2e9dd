import type { Memory } from "@memory/api";
import { type MemoryToolsOptions, memoryToolDefinitions } from "@memory/tools";
import { type FunctionTool, tool } from "@openai/agents";

type NonStrictParameters = Extract<Parameters<typeof tool>[0], { strict: false }>["parameters"];

/**
 * The memory tools (`memory_store`, `memory_recall`, `memory_forget`, `memory_list`,
 * `memory_context`, or those `options.tools` names) as OpenAI Agents function tools, for
 * `new Agent({ tools })`. Names, descriptions and input schemas are `@memory/tools'` (the MCP
 * server's). The tools are non-strict: their inputs have optional fields, which strict mode
 * forbids; each call is validated against the zod schema instead. The model reads the result
 * text; a failed call comes back to it as the SDK's tool error message.
 */
export function memoryFunctionTools(
  memory: Memory,
  options: MemoryToolsOptions = {},
): FunctionTool[] {
  return memoryToolDefinitions(memory, options).map((definition) => {
    // `$schema` is noise to a model API; the rest is the plain object schema it expects.
    const { $schema: _dialect, ...parameters } = definition.inputJsonSchema;
    return tool({
      name: definition.name,
      description: definition.description,
      parameters: parameters as unknown as NonStrictParameters,
      strict: false,
      execute: async (input) => (await definition.execute(input)).text,
    }) as FunctionTool;
  });
}
