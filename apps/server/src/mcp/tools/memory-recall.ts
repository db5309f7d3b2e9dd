import { collectionsInput, namespaceInput, recallInput } from "@memory/tools";
import { z } from "zod";
import { recallWithTrace } from "../../operations/recall.js";
import { RecallRequestSchema } from "../../wire/requests.js";
import { explainField, RecallTraceSchema } from "../../wire/trace.js";
import { defineTool, mcpToolSpec } from "../tool-definition.js";
import { EntryMetadataSchema, listEntries, RESULT_MAX_CHARS, toolResult } from "../tool-results.js";
import { whyNotText } from "../trace-text.js";

export const memoryRecall = defineTool({
  ...mcpToolSpec("memory_recall"),
  // POST /v1/recall's fields and bounds, described once. A collection's result names its file,
  // lines and title in the text (entryHeader) and carries `source` in the structured part.
  inputSchema: z
    .object({
      ...recallInput,
      collections: collectionsInput,
      namespace: namespaceInput,
      explain: explainField,
      key: RecallRequestSchema.shape.key,
    })
    .strict(),
  outputSchema: z.object({
    results: z.array(EntryMetadataSchema).describe("The results shown in the text, best first."),
    omitted: z
      .number()
      .int()
      .describe("Results left out to keep the result within its size bound."),
    recallId: z
      .string()
      .optional()
      .describe("For memory_feedback: which of these results you used (absent when not tracked)."),
    trace: RecallTraceSchema.optional().describe('With explain "full": why, and why not.'),
  }),
  async run(input, scope) {
    const { results: found, trace, recallId } = await recallWithTrace(input, scope);
    const listing = listEntries(found, (index) => `${index + 1}. `);
    const more =
      listing.omitted === 0
        ? ""
        : `\n(${listing.omitted} more result(s) left out: an answer holds at most ${RESULT_MAX_CHARS} characters; use a smaller limit or a narrower query.)`;
    // The recallId closes the listing, with what it is for, so that a model can call feedback.
    const tracked =
      recallId === undefined || found.length === 0
        ? ""
        : `\n(recallId ${recallId}: after answering, memory_feedback with it and the keys you used.)`;
    const text =
      found.length === 0 ? "No matching memories." : `${listing.lines.join("\n")}${more}${tracked}`;
    const ids = recallId === undefined ? {} : { recallId };
    if (!trace)
      return toolResult(text, { results: listing.entries, omitted: listing.omitted, ...ids });
    return toolResult(`${text}${whyNotText(trace.candidates, trace.focus?.verdict)}`, {
      results: listing.entries,
      omitted: listing.omitted,
      trace,
    });
  },
});
