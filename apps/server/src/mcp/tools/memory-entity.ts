import { entityInput, namespaceInput } from "@memory/tools";
import { z } from "zod";
import { entityEntries } from "../../operations/entities.js";
import { defineTool, mcpToolSpec } from "../tool-definition.js";
import { cutAt, toolResult } from "../tool-results.js";

/** Characters of each memory shown (memory_get reads it in full). */
const EXCERPT_CHARS = 300;
const DEFAULT_LIMIT = 10;

export const memoryEntity = defineTool({
  ...mcpToolSpec("memory_entity"),
  inputSchema: z.object({ ...entityInput, namespace: namespaceInput }).strict(),
  outputSchema: z.object({
    name: z.string(),
    key: z.string(),
    namespace: z.string(),
    mentions: z.number().int(),
    entries: z
      .array(
        z.object({
          key: z.string(),
          category: z.string(),
          updatedAt: z.string(),
          content: z.string().describe(`At most ${EXCERPT_CHARS} characters.`),
        }),
      )
      .describe("Newest first."),
  }),
  async run(input, scope) {
    const report = await entityEntries({ ...input, limit: input.limit ?? DEFAULT_LIMIT }, scope);
    const entries = report.entries.map((entry) => ({
      key: entry.key,
      category: entry.category,
      updatedAt: entry.updatedAt,
      content: cutAt(entry.content, EXCERPT_CHARS),
    }));
    const lines = entries.map(
      (entry) => `- [${entry.updatedAt.slice(0, 10)}] "${entry.key}": ${entry.content}`,
    );
    return toolResult(
      `${report.name}: named by ${report.mentions} ${report.mentions === 1 ? "memory" : "memories"}, newest first:\n${lines.join("\n")}`,
      {
        name: report.name,
        key: report.key,
        namespace: report.namespace,
        mentions: report.mentions,
        entries,
      },
    );
  },
});
