import { collectionsInput, namespaceInput, recallInput } from "@memory/tools";
import { z } from "zod";
import { recallEntries } from "../../operations/recall.js";
import { defineTool, mcpToolSpec } from "../tool-definition.js";
import { EntryMetadataSchema, listEntries, RESULT_MAX_CHARS, toolResult } from "../tool-results.js";

export const memoryRecall = defineTool({
  ...mcpToolSpec("memory_recall"),
  // POST /v1/recall's fields and bounds, described once. A collection's result names its file,
  // lines and title in the text (entryHeader) and carries `source` in the structured part.
  inputSchema: z
    .object({ ...recallInput, collections: collectionsInput, namespace: namespaceInput })
    .strict(),
  outputSchema: z.object({
    results: z.array(EntryMetadataSchema).describe("The results shown in the text, best first."),
    omitted: z
      .number()
      .int()
      .describe("Results left out to keep the result within its size bound."),
  }),
  async run(input, scope) {
    const found = await recallEntries(input, scope);
    const listing = listEntries(found, (index) => `${index + 1}. `);
    const more =
      listing.omitted === 0
        ? ""
        : `\n(${listing.omitted} more result(s) left out: an answer holds at most ${RESULT_MAX_CHARS} characters; use a smaller limit or a narrower query.)`;
    const text =
      found.length === 0 ? "No matching memories." : `${listing.lines.join("\n")}${more}`;
    return toolResult(text, { results: listing.entries, omitted: listing.omitted });
  },
});
