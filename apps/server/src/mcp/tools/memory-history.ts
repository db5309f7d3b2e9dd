import { historyInput, namespaceInput } from "@memory/tools";
import { z } from "zod";
import { entryHistory } from "../../operations/repair.js";
import { defineTool, mcpToolSpec } from "../tool-definition.js";
import { EntryMetadataSchema, listEntries, RESULT_MAX_CHARS, toolResult } from "../tool-results.js";

export const memoryHistory = defineTool({
  ...mcpToolSpec("memory_history"),
  // POST /v1/memories/history's body.
  inputSchema: z.object({ ...historyInput, namespace: namespaceInput }).strict(),
  outputSchema: z.object({
    versions: z
      .array(EntryMetadataSchema)
      .describe("Newest first: the memory itself, then its earlier versions."),
  }),
  async run(input, scope) {
    const versions = await entryHistory(input, scope);
    const listing = listEntries(versions, (index) => {
      const version = versions[index]!;
      const label = version.key === input.key ? "current" : "earlier";
      return `- ${version.updatedAt} (${label}) `;
    });
    const omitted =
      listing.omitted === 0
        ? ""
        : `\n(${listing.omitted} older versions left out: an answer holds at most ${RESULT_MAX_CHARS} characters; memory_get reads one by its key.)`;
    return toolResult(`${listing.lines.join("\n")}${omitted}`, { versions: listing.entries });
  },
});
