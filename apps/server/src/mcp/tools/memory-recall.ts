import { z } from "zod";
import { resolveNamespace } from "../../access.js";
import { defined } from "../../defined.js";
import { fields, RecallRequestSchema } from "../../schemas.js";
import { defineTool } from "../tool-definition.js";
import { EntryMetadataSchema, listEntries, RESULT_MAX_CHARS, toolResult } from "../tool-results.js";
import { namespaceInput } from "./tool-inputs.js";

export const MEMORY_RECALL_DESCRIPTION =
  "Search long-term memory for what is relevant to a question or topic; best matches first, each with a relevance score (higher is better). Use it before answering when the user refers to earlier conversations, their preferences, their projects, or anything they told you before. Query with the user's words or a few keywords. An empty query returns the most recent memories. Long contents are cut, with a note saying how to read them whole (memory_get).";

const recall = RecallRequestSchema.shape;

export const memoryRecall = defineTool({
  name: "memory_recall",
  title: "Search memory",
  description: MEMORY_RECALL_DESCRIPTION,
  // The HTTP body's fields and bounds (POST /v1/recall), described for the model.
  inputSchema: z
    .object({
      query: recall.query.describe("What to look for, in natural language or keywords."),
      limit: recall.limit.describe("How many results at most; default 5."),
      categories: z
        .array(fields.category)
        .optional()
        .describe('Only these categories, e.g. ["core"].'),
      sessionId: fields.sessionId.optional().describe("Only memories from this session."),
      minScore: recall.minScore.describe(
        "Drop results whose relevance (0..1) is below this; default 0.3, 0 keeps all.",
      ),
      namespace: namespaceInput,
    })
    .strict(),
  outputSchema: z.object({
    results: z.array(EntryMetadataSchema).describe("The results shown in the text, best first."),
    omitted: z
      .number()
      .int()
      .describe("Results left out to keep the result within its size bound."),
  }),
  annotations: { readOnlyHint: true, openWorldHint: false },
  async run(input, { memory, access, signal }) {
    const { query, namespace: requested, ...rest } = input;
    const namespace = resolveNamespace(access, requested);
    const found = await memory.recall(
      query,
      defined({ ...rest, limit: rest.limit ?? 5, namespace, signal }),
    );
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
