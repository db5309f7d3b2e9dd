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

export const CONTEXT_DESCRIPTION =
  "Get the memory context for a message: the stored memories most relevant to it, as a short block of \"- [category] key: content\" lines, with stale (superseded) and repeated memories left out. Call it with an empty message at the start of a conversation to get the user's standing core memories, or with the user's message before answering one that may depend on what you know about them. It returns nothing when no memory is relevant; use memory_recall to search with your own query and see scores.";

export interface MemoryContextData {
  /** The `[Memory context]` block, `""` when nothing was relevant. */
  text: string;
  entries: CompactEntry[];
  truncated: boolean;
}

export function contextTool(memory: Memory, options: MemoryToolsOptions, scope: NamespaceScope) {
  return defineMemoryTool({
    name: "memory_context",
    title: "Memory context for a message",
    description: CONTEXT_DESCRIPTION,
    inputSchema: withNamespace(contextInput, scope),
    annotations: { readOnlyHint: true, openWorldHint: false },
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
