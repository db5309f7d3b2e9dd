import { contentKey, type Memory } from "@memory/api";
import { type CompactEntry, compactEntry, definedFields } from "./entry-text.js";
import { storeInput } from "./input-schemas.js";
import {
  type MemoryToolsOptions,
  type NamespaceScope,
  withNamespace,
} from "./memory-tools-options.js";
import { defineMemoryTool } from "./tool-definition.js";

export const STORE_DESCRIPTION =
  'Save a fact, preference, decision or note to long-term memory so it can be recalled in later conversations. Write the content as a self-contained sentence ("The user prefers Neovim for editing code"), not a fragment. Category: "core" (the default) for durable facts, preferences and decisions about the user or their work; "daily" for what happened today (notes, progress); "conversation" only for passing details of this chat. The key is optional: leave it out and one is derived from the content (the same text stored twice stays one memory), or give a short, stable, descriptive key such as "user_preferred_editor": storing again under the same key replaces the old content, which is how you correct or update a memory. Never store secrets.';

export function storeTool(memory: Memory, options: MemoryToolsOptions, scope: NamespaceScope) {
  return defineMemoryTool({
    name: "memory_store",
    title: "Remember something",
    description: STORE_DESCRIPTION,
    inputSchema: withNamespace(storeInput, scope),
    annotations: { idempotentHint: true, destructiveHint: false, openWorldHint: false },
    async run(input): Promise<{ text: string; data: { entry: CompactEntry } }> {
      const namespace = scope.resolve(input.namespace);
      // Without a key, the one `memory store` derives: the same text stays one memory.
      const key = input.key ?? contentKey(input.content);
      const sessionId = input.sessionId ?? options.sessionId;
      const entry = compactEntry(
        await memory.store(definedFields({ ...input, key, namespace, sessionId })),
      );
      const superseded = entry.conflict?.superseded ?? [];
      const replaced =
        superseded.length === 0 ? "" : ` It replaces the older memory ${superseded.join(", ")}.`;
      return {
        text: `Stored "${entry.key}" (${entry.category}) in namespace "${entry.namespace}".${replaced}`,
        data: { entry },
      };
    },
  });
}
