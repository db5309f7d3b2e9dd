import type { Memory } from "@memory/api";
import { type CompactEntry, compactEntry, definedFields, entryLine } from "./entry-text.js";
import { listInput } from "./input-schemas.js";
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
        await memory.list(definedFields({ ...input, limit: input.limit ?? 20, namespace }))
      ).map(compactEntry);
      const text =
        entries.length === 0
          ? "No memories stored yet."
          : entries.map((entry) => `- ${entryLine(entry)}`).join("\n");
      return { text, data: { entries } };
    },
  });
}
