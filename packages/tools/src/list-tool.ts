import type { Memory } from "@memory/api";
import { type CompactEntry, compactEntry, definedFields, entryLine } from "./entry-text.js";
import { listInput } from "./input-schemas.js";
import { type NamespaceScope, withNamespace } from "./memory-tools-options.js";
import { defineMemoryTool } from "./tool-definition.js";

export const LIST_DESCRIPTION =
  "List stored memories, newest first, optionally only some categories or one session. Use it to browse what is stored; use memory_recall to search by meaning.";

export function listTool(memory: Memory, scope: NamespaceScope) {
  return defineMemoryTool({
    name: "memory_list",
    title: "List memories",
    description: LIST_DESCRIPTION,
    inputSchema: withNamespace(listInput, scope),
    annotations: { readOnlyHint: true, openWorldHint: false },
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
