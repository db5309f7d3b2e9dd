import type { Memory } from "@memory/api";
import { type CompactEntry, compactEntry, definedFields, entryLine } from "./entry-text.js";
import { LIST_DEFAULT_LIMIT, listInput } from "./input-schemas.js";
import { type NamespaceScope, withNamespace } from "./memory-tools-options.js";
import { defineMemoryTool } from "./tool-definition.js";
import { memoryToolSpec } from "./tool-specs.js";

export function listTool(memory: Memory, scope: NamespaceScope) {
  return defineMemoryTool({
    ...memoryToolSpec("memory_list"),
    inputSchema: withNamespace(listInput, scope),
    async run(input): Promise<{ text: string; data: { entries: CompactEntry[] } }> {
      const namespace = scope.resolve(input.namespace);
      const entries = (
        await memory.list(
          definedFields({ ...input, limit: input.limit ?? LIST_DEFAULT_LIMIT, namespace }),
        )
      ).map(compactEntry);
      const text =
        entries.length === 0
          ? "No memories stored yet."
          : entries.map((entry) => `- ${entryLine(entry)}`).join("\n");
      return { text, data: { entries } };
    },
  });
}
