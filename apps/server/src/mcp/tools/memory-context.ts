import { MEMORY_CONTEXT_DEFAULTS } from "@memory/lifecycle";
import { contextInput, namespaceInput } from "@memory/tools";
import { z } from "zod";
import { buildContext } from "../../operations/recall.js";
import { ContextRequestSchema } from "../../wire/requests.js";
import { ContextTraceSchema } from "../../wire/trace.js";
import { defineTool, mcpToolSpec } from "../tool-definition.js";
import { EntryMetadataSchema, metadataOf, toolResult } from "../tool-results.js";
import { whyNotText } from "../trace-text.js";

export const memoryContext = defineTool({
  ...mcpToolSpec("memory_context"),
  // POST /v1/context's body: the shared fields described once, the tuning ones as over HTTP.
  inputSchema: ContextRequestSchema.extend({ ...contextInput, namespace: namespaceInput }).strict(),
  // POST /v1/context's response: the block, then each entry's metadata (its text is in the block).
  outputSchema: z.object({
    context: z.string().describe('The "[Memory context]" block, or "" when nothing was found.'),
    entries: z
      .array(EntryMetadataSchema)
      .describe("The memories in the block, in block order (their text is in the block)."),
    truncated: z.boolean().describe("True when entries or characters were dropped to fit."),
    recallId: z
      .string()
      .optional()
      .describe("For memory_feedback: which of these memories you used (absent when not tracked)."),
    trace: ContextTraceSchema.optional().describe('With explain "full": why, and why not.'),
  }),
  async run(input, scope) {
    // memory.toml's auto_recall* under what the call gives, as POST /v1/context.
    const built = await buildContext(input, scope);
    const tracked =
      built.recallId === undefined || built.context === ""
        ? ""
        : `\n(recallId ${built.recallId}: after answering, memory_feedback with it and the keys you used.)`;
    const text = built.context === "" ? "No relevant memories." : `${built.context}${tracked}`;
    const why = built.trace ? whyNotText(built.trace.candidates, undefined) : "";
    return toolResult(`${text}${why}`, {
      // Also here, for a client that reads only the structured part: the block is small
      // (maxChars) and this keeps the HTTP response's fields.
      context: built.context,
      // The block holds each entry's content, cut to fit when long (maxEntryChars).
      entries: built.entries.map((entry) =>
        metadataOf(
          entry,
          built.context.includes(entry.content)
            ? entry.content.length
            : Math.min(entry.content.length, MEMORY_CONTEXT_DEFAULTS.maxEntryChars),
        ),
      ),
      truncated: built.truncated,
      ...(built.recallId === undefined ? {} : { recallId: built.recallId }),
      ...(built.trace ? { trace: built.trace } : {}),
    });
  },
});
