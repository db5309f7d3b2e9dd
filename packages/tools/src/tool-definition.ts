import { InvalidInputError } from "@memory/api";
import { z } from "zod";

/** The names of the tools, the same as the MCP server's. */
export const MEMORY_TOOL_NAMES = [
  "memory_store",
  "memory_recall",
  "memory_forget",
  "memory_list",
  "memory_context",
] as const;

export type MemoryToolName = (typeof MEMORY_TOOL_NAMES)[number];

/** Hints for hosts that show or gate tools (MCP tool annotations). */
export interface MemoryToolAnnotations {
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/** What a tool call returns: a text for the model and the same facts as data. */
export interface MemoryToolResult<Data> {
  /** Readable by a model as it is (MCP puts it in the text content). */
  text: string;
  /** Structured result (MCP `structuredContent`, an AI SDK tool's output). */
  data: Data;
}

export interface MemoryToolCallOptions {
  /** Cancels the call (passed to recall). */
  signal?: AbortSignal;
}

/** The JSON Schema of a tool's input, as `z.toJSONSchema` writes it (draft 2020-12). */
export type JsonSchema = z.core.JSONSchema.JSONSchema;

/**
 * One memory tool, framework-neutral: what a model is shown (name, title, description, input
 * schema as zod and as JSON Schema) and what runs when it calls the tool.
 */
export interface MemoryToolDefinition<Input = Record<string, unknown>, Data = unknown> {
  name: MemoryToolName;
  title: string;
  description: string;
  /** zod 4 object schema; `.shape` is what `McpServer.registerTool` takes. */
  inputSchema: z.ZodObject<z.ZodRawShape>;
  /** The same schema as JSON Schema, for frameworks that take one. */
  inputJsonSchema: JsonSchema;
  annotations: MemoryToolAnnotations;
  /**
   * Validates `input` against `inputSchema` (a mismatch throws `InvalidInputError`, code
   * INVALID_INPUT) and runs the tool. Backend errors are not caught: they reject with their
   * `MemoryError`, for the host to show to the model or to the user.
   */
  execute(input: Input, options?: MemoryToolCallOptions): Promise<MemoryToolResult<Data>>;
}

/** Any of the definitions, as held in the array `memoryToolDefinitions` returns. */
// biome-ignore lint/suspicious/noExplicitAny: each tool has its own input type; hosts pass JSON.
export type AnyMemoryToolDefinition = MemoryToolDefinition<any, unknown>;

/** Parses a tool input; the error names the tool and every field that is wrong. */
export function parseToolInput<Output>(
  name: MemoryToolName,
  schema: z.ZodType<Output>,
  input: unknown,
): Output {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  throw new InvalidInputError(
    `Invalid input for ${name}: ${z.prettifyError(parsed.error).replace(/\n/g, " ")}. Pass the fields its input schema describes.`,
    { cause: parsed.error },
  );
}

/** Builds a definition: the JSON Schema from the zod one, input parsed before `run`. */
export function defineMemoryTool<Shape extends z.ZodRawShape, Data>(definition: {
  name: MemoryToolName;
  title: string;
  description: string;
  inputSchema: z.ZodObject<Shape>;
  annotations: MemoryToolAnnotations;
  run(
    input: z.output<z.ZodObject<Shape>>,
    options: MemoryToolCallOptions,
  ): Promise<MemoryToolResult<Data>>;
}): MemoryToolDefinition<z.input<z.ZodObject<Shape>>, Data> {
  const { run, ...shown } = definition;
  return {
    ...shown,
    inputJsonSchema: z.toJSONSchema(definition.inputSchema),
    execute: async (input, options = {}) =>
      run(parseToolInput(definition.name, definition.inputSchema, input), options),
  };
}
