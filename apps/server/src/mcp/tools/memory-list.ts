import { z } from "zod";
import { resolveNamespace } from "../../access.js";
import { defined } from "../../defined.js";
import { fields, INPUT_BOUNDS } from "../../schemas.js";
import { defineTool } from "../tool-definition.js";
import { EntryMetadataSchema, listEntries, RESULT_MAX_CHARS, toolResult } from "../tool-results.js";
import { namespaceInput } from "./tool-inputs.js";

export const MEMORY_LIST_DESCRIPTION =
  "List stored memories, newest first, optionally only some categories or one session. Use it to browse what is stored; use memory_recall to search by meaning. Long contents are cut (memory_get reads them whole), and a page stops before the answer grows too large: the answer then says which offset lists the rest.";

export const memoryList = defineTool({
  name: "memory_list",
  title: "List memories",
  description: MEMORY_LIST_DESCRIPTION,
  // GET /v1/memories' filters and bounds, as JSON values.
  inputSchema: z
    .object({
      categories: z
        .array(fields.category)
        .optional()
        .describe('Only these categories, e.g. ["core"].'),
      sessionId: fields.sessionId.optional().describe("Only memories from this session."),
      limit: z
        .number()
        .int()
        .min(0)
        .max(INPUT_BOUNDS.listLimit)
        .optional()
        .describe("How many at most; default 20."),
      offset: z.number().int().min(0).optional().describe("Skip this many (for paging)."),
      namespace: namespaceInput,
    })
    .strict(),
  outputSchema: z.object({
    entries: z.array(EntryMetadataSchema),
    nextOffset: z
      .number()
      .int()
      .optional()
      .describe("The offset of the next page, when entries were left out to bound the answer."),
  }),
  annotations: { readOnlyHint: true, openWorldHint: false },
  async run(input, { memory, access }) {
    const namespace = resolveNamespace(access, input.namespace);
    const offset = input.offset ?? 0;
    const found = await memory.list(defined({ ...input, limit: input.limit ?? 20, namespace }));
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
