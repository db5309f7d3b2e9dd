import type { Memory } from "@memory/api";
import { type CompactEntry, compactEntry, definedFields, entryLine } from "./entry-text.js";
import { RECALL_DEFAULT_LIMIT, recallInput } from "./input-schemas.js";
import { type NamespaceScope, withNamespace } from "./memory-tools-options.js";
import { defineMemoryTool } from "./tool-definition.js";
import { memoryToolSpec } from "./tool-specs.js";

export function recallTool(memory: Memory, scope: NamespaceScope) {
  return defineMemoryTool({
    ...memoryToolSpec("memory_recall"),
    inputSchema: withNamespace(recallInput, scope),
    async run(
      input,
      { signal },
    ): Promise<{ text: string; data: { results: CompactEntry[]; recallId?: string } }> {
      const { query, namespace: requested, ...rest } = input;
      const namespace = scope.resolve(requested);
      const found = await memory.recall(
        query,
        definedFields({ ...rest, limit: rest.limit ?? RECALL_DEFAULT_LIMIT, namespace, signal }),
      );
      const results = found.map(compactEntry);
      const text =
        results.length === 0
          ? "No matching memories."
          : results.map((entry, index) => `${index + 1}. ${entryLine(entry)}`).join("\n");
      // The recallId lets the host tell memory which results were used (Memory.feedback); it is
      // absent when the backend does not track usage or tracking is off.
      return {
        text,
        data: { results, ...(found.recallId === undefined ? {} : { recallId: found.recallId }) },
      };
    },
  });
}
