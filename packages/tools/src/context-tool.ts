import type { Memory } from "@memory/api";
import { buildMemoryContext } from "@memory/lifecycle";
import { type CompactEntry, compactEntry, definedFields } from "./entry-text.js";
import { contextInput } from "./input-schemas.js";
import {
  type MemoryToolsOptions,
  type NamespaceScope,
  withNamespace,
} from "./memory-tools-options.js";
import { defineMemoryTool } from "./tool-definition.js";
import { memoryToolSpec } from "./tool-specs.js";

export interface MemoryContextData {
  /** The `[Memory context]` block, `""` when nothing was relevant. */
  text: string;
  entries: CompactEntry[];
  truncated: boolean;
}

export function contextTool(memory: Memory, options: MemoryToolsOptions, scope: NamespaceScope) {
  return defineMemoryTool({
    ...memoryToolSpec("memory_context"),
    inputSchema: withNamespace(contextInput, scope),
    async run(input, { signal }): Promise<{ text: string; data: MemoryContextData }> {
      const namespace = scope.resolve(input.namespace);
      const context = await buildMemoryContext(
        memory,
        input.message,
        definedFields({ ...options.context, namespace, sessionId: input.sessionId, signal }),
      );
      const data = { ...context, entries: context.entries.map(compactEntry) };
      return { text: context.text === "" ? "No relevant memories." : context.text, data };
    },
  });
}
