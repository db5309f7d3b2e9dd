import { InvalidInputError } from "@memory/api";
import type { MemoryContextOptions } from "@memory/lifecycle";
import { z } from "zod";
import { namespaceInput } from "./input-schemas.js";
import { MEMORY_TOOL_NAMES, type MemoryToolName } from "./tool-definition.js";

/** Options of `memoryToolDefinitions` (and of the framework adapters built on it). */
export interface MemoryToolsOptions {
  /**
   * The namespace every call uses (one per user or per agent, typically). Given, the tools have
   * no `namespace` input: a model cannot read or write another namespace. Left out, the tools
   * offer an optional `namespace` input (the memory's `"default"` when the model leaves it out).
   */
  namespace?: string;
  /**
   * For hosts with access rules (the MCP server): the tools offer the `namespace` input and this
   * decides the namespace used from the one the model asked for (`undefined` when it asked for
   * none); throw a `MemoryError` to refuse. Not together with `namespace`.
   */
  resolveNamespace?: (requested: string | undefined) => string | undefined;
  /** Session id given to stored memories when the model passes none (`memory_store`). */
  sessionId?: string;
  /** Defaults of `memory_context` (see `buildMemoryContext` of @memory/lifecycle). */
  context?: Omit<MemoryContextOptions, "namespace" | "sessionId" | "signal">;
  /** Which tools to define, in this order; default all of {@link MEMORY_TOOL_NAMES}. */
  tools?: readonly MemoryToolName[];
}

/** How the tools pick a namespace, decided once from the options. */
export interface NamespaceScope {
  /** Whether the tools' inputs have the `namespace` field. */
  offered: boolean;
  resolve(requested: string | undefined): string | undefined;
}

const toolsOptionsSchema = z.object({
  namespace: namespaceInput,
  sessionId: z.string().min(1).optional(),
  tools: z.array(z.enum(MEMORY_TOOL_NAMES)).optional(),
});

/** Checks the options a developer passed; a mistake is an `InvalidInputError` that names it. */
export function checkToolsOptions(options: MemoryToolsOptions): void {
  const parsed = toolsOptionsSchema.safeParse({
    namespace: options.namespace,
    sessionId: options.sessionId,
    tools: options.tools,
  });
  if (!parsed.success)
    throw new InvalidInputError(
      `Invalid memory tools options: ${z.prettifyError(parsed.error).replace(/\n/g, " ")}.`,
      { cause: parsed.error },
    );
  if (options.namespace !== undefined && options.resolveNamespace !== undefined)
    throw new InvalidInputError(
      "Memory tools options: give either `namespace` (fixed) or `resolveNamespace` (the model may ask for one), not both.",
    );
}

export function namespaceScope(options: MemoryToolsOptions): NamespaceScope {
  const { namespace, resolveNamespace } = options;
  if (namespace !== undefined) return { offered: false, resolve: () => namespace };
  return { offered: true, resolve: resolveNamespace ?? ((requested) => requested) };
}

/** The tool's input schema, with the `namespace` field when the scope offers it. */
export function withNamespace<Shape extends z.ZodRawShape>(
  shape: Shape,
  scope: NamespaceScope,
): z.ZodObject<Shape & { namespace: typeof namespaceInput }> {
  // Without the field the schema strips a `namespace` a caller sends anyway, so it is ignored.
  const full = z.object({ ...shape, namespace: namespaceInput });
  return (scope.offered ? full : z.object(shape)) as typeof full;
}
