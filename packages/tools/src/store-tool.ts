import type { Memory, MemoryEntry } from "@memory/api";
import { contentKey } from "@memory/core";
import { type CompactEntry, compactEntry, definedFields } from "./entry-text.js";
import { storeInput } from "./input-schemas.js";
import {
  type MemoryToolsOptions,
  type NamespaceScope,
  withNamespace,
} from "./memory-tools-options.js";
import { defineMemoryTool } from "./tool-definition.js";
import { memoryToolSpec } from "./tool-specs.js";

export function storeTool(memory: Memory, options: MemoryToolsOptions, scope: NamespaceScope) {
  return defineMemoryTool({
    ...memoryToolSpec("memory_store"),
    inputSchema: withNamespace(storeInput, scope),
    async run(input): Promise<{ text: string; data: { entry: CompactEntry } }> {
      const namespace = scope.resolve(input.namespace);
      // Without a key, the one `memory store` derives: the same text stays one memory.
      const key = input.key ?? contentKey(input.content);
      const sessionId = input.sessionId ?? options.sessionId;
      const entry = compactEntry(
        await memory.store(definedFields({ ...input, key, namespace, sessionId })),
      );
      return { text: storedText(entry), data: { entry } };
    },
  });
}

/**
 * What `memory_store` answers (here and in the server's MCP tool): where the entry is, what it
 * replaced, and where a same-key store kept the previous content.
 */
export function storedText(
  entry: Pick<MemoryEntry, "key" | "category" | "namespace" | "conflict" | "keptVersion">,
): string {
  const superseded = entry.conflict?.superseded ?? [];
  const replaced =
    superseded.length === 0 ? "" : ` It replaces the older memory ${superseded.join(", ")}.`;
  const kept =
    entry.keptVersion === undefined
      ? ""
      : ` The previous content is kept as "${entry.keptVersion}" (memory_history with key "${entry.key}" lists it).`;
  return `Stored "${entry.key}" (${entry.category}) in namespace "${entry.namespace}".${replaced}${kept}`;
}
