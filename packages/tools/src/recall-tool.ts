import type { Memory } from "@memory/api";
import { type CompactEntry, compactEntry, definedFields, entryLine } from "./entry-text.js";
import { recallInput } from "./input-schemas.js";
import { type NamespaceScope, withNamespace } from "./memory-tools-options.js";
import { defineMemoryTool } from "./tool-definition.js";

export const RECALL_DESCRIPTION =
  "Search long-term memory for what is relevant to a question or topic; best matches first, each with a relevance score (higher is better). Use it before answering when the user refers to earlier conversations, their preferences, their projects, or anything they told you before. Query with the user's words or a few keywords. An empty query returns the most recent memories.";

/** Results when the model gives no `limit` (the MCP server's default too). */
export const RECALL_DEFAULT_LIMIT = 5;

export function recallTool(memory: Memory, scope: NamespaceScope) {
  return defineMemoryTool({
    name: "memory_recall",
    title: "Search memory",
    description: RECALL_DESCRIPTION,
    inputSchema: withNamespace(recallInput, scope),
    annotations: { readOnlyHint: true, openWorldHint: false },
    async run(input, { signal }): Promise<{ text: string; data: { results: CompactEntry[] } }> {
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
      return { text, data: { results } };
    },
  });
}
