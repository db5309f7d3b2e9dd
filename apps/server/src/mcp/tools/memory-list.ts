import { LIST_DEFAULT_LIMIT, listInput, namespaceInput } from "@memory/tools";
import { z } from "zod";
import { listEntries as listStoredEntries } from "../../operations/entries.js";
import { defineTool, mcpToolSpec } from "../tool-definition.js";
import { EntryMetadataSchema, listEntries, RESULT_MAX_CHARS, toolResult } from "../tool-results.js";

export const memoryList = defineTool({
  ...mcpToolSpec("memory_list"),
  // GET /v1/memories' filters and bounds, as JSON values, described once.
  inputSchema: z.object({ ...listInput, namespace: namespaceInput }).strict(),
  outputSchema: z.object({
    entries: z.array(EntryMetadataSchema),
    nextOffset: z
      .number()
      .int()
      .optional()
      .describe("The offset of the next page, when entries were left out to bound the answer."),
  }),
  async run(input, scope) {
    const offset = input.offset ?? 0;
    // A smaller page than GET /v1/memories' (100): a tool answer is bounded (tool-results.ts).
    const found = await listStoredEntries(
      { ...input, limit: input.limit ?? LIST_DEFAULT_LIMIT },
      scope,
    );
    const listing = listEntries(found, () => "- ");
    if (found.length === 0)
      return toolResult(offset === 0 ? "No memories stored yet." : "No more memories.", {
        entries: [],
      });
    if (listing.omitted === 0)
      return toolResult(listing.lines.join("\n"), { entries: listing.entries });
    const nextOffset = offset + listing.entries.length;
    return toolResult(
      `${listing.lines.join("\n")}\n(${listing.omitted} more left out: an answer holds at most ${RESULT_MAX_CHARS} characters; memory_list with offset ${nextOffset} lists them.)`,
      { entries: listing.entries, nextOffset },
    );
  },
});
