import type { Memory } from "@memory/api";
import { forgetInput } from "./input-schemas.js";
import { type NamespaceScope, withNamespace } from "./memory-tools-options.js";
import { defineMemoryTool } from "./tool-definition.js";
import { memoryToolSpec } from "./tool-specs.js";

export function forgetTool(memory: Memory, scope: NamespaceScope) {
  return defineMemoryTool({
    ...memoryToolSpec("memory_forget"),
    inputSchema: withNamespace(forgetInput, scope),
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
