import type { Memory } from "@memory/api";
import { forgetInput } from "./input-schemas.js";
import { type NamespaceScope, withNamespace } from "./memory-tools-options.js";
import { defineMemoryTool } from "./tool-definition.js";

export const FORGET_DESCRIPTION =
  "Permanently delete one memory by its exact key. Use it when the user asks you to forget something, or a memory is wrong and should not exist at all. To correct a memory, call memory_store with the same key instead.";

export function forgetTool(memory: Memory, scope: NamespaceScope) {
  return defineMemoryTool({
    name: "memory_forget",
    title: "Forget one memory",
    description: FORGET_DESCRIPTION,
    inputSchema: withNamespace(forgetInput, scope),
    annotations: { destructiveHint: true, idempotentHint: true, openWorldHint: false },
    async run(input): Promise<{ text: string; data: { deleted: boolean } }> {
      const namespace = scope.resolve(input.namespace);
      const deleted = await memory.forget(input.key, namespace === undefined ? {} : { namespace });
      return {
        text: deleted ? `Forgot "${input.key}".` : `There was no memory with key "${input.key}".`,
        data: { deleted },
      };
    },
  });
}
