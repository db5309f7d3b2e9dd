import { type AnyMemoryToolName, type MemoryToolSpec, memoryToolSpec } from "@memory/tools";
import type { CallToolResult, ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";
import type { z } from "zod";
import type { Logger } from "../logger.js";
import type { OperationScope, OperationSettings } from "../operations/operation-scope.js";

/**
 * What every tool handler gets: the operation scope (the memory, the caller's namespaces, the
 * call's cancellation) and the server's settings, as an HTTP route gives its operation.
 */
export interface McpToolContext extends OperationScope, OperationSettings {
  logger: Logger;
  signal: AbortSignal;
}

/**
 * One MCP tool, described once: its name, the description written for the model, its input
 * schema (strict: a misspelt argument is refused, as HTTP refuses an unknown field), its output
 * schema and its handler. The server registers the list in src/mcp/tools/index.ts. What the
 * model reads (descriptions, input fields) is @memory/tools', shared with the adapters.
 */
export interface McpTool<Input extends z.ZodObject = z.ZodObject> {
  name: string;
  title: string;
  description: string;
  inputSchema: Input;
  outputSchema: z.ZodObject;
  annotations: ToolAnnotations;
  /**
   * Offered only when this holds (memory_remember needs a chat model; adding and removing
   * collections needs `[server].collection_roots`).
   */
  available?(context: Pick<McpToolContext, "chatModel" | "collections">): boolean;
  run(input: z.output<Input>, context: McpToolContext): Promise<CallToolResult>;
}

/**
 * A tool's name, title, description and annotations: @memory/tools' words (the adapters show
 * the same), with the notes of a host that bounds results (src/mcp/tool-results.ts).
 */
export function mcpToolSpec<Name extends AnyMemoryToolName>(name: Name): MemoryToolSpec<Name> {
  return memoryToolSpec(name, { boundedResults: true });
}

export function defineTool<Input extends z.ZodObject>(tool: McpTool<Input>): McpTool<Input> {
  return tool;
}
