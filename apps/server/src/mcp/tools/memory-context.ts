import { buildMemoryContext, MEMORY_CONTEXT_DEFAULTS } from "@memory/lifecycle";
import { z } from "zod";
import { resolveNamespace } from "../../access.js";
import { defined } from "../../defined.js";
import { ContextRequestSchema, fields } from "../../schemas.js";
import { defineTool } from "../tool-definition.js";
import { EntryMetadataSchema, metadataOf, toolResult } from "../tool-results.js";
import { namespaceInput } from "./tool-inputs.js";

export const MEMORY_CONTEXT_DESCRIPTION =
  "Get the memory context for the user's message before you answer it: the memories relevant to it (recalled as memory_recall would, with a stricter relevance floor) and, at the start of a conversation (an empty message), the user's most important core memories, as one \"[Memory context]\" block of at most 2000 characters by default. Call it at the start of each turn with the user's message verbatim; an empty answer means nothing relevant is stored. Use memory_recall instead to search for something specific.";

const context = ContextRequestSchema.shape;

export const memoryContext = defineTool({
  name: "memory_context",
  title: "Memory context for a message",
  description: MEMORY_CONTEXT_DESCRIPTION,
  // POST /v1/context's body, described for the model.
  inputSchema: ContextRequestSchema.extend({
    message: context.message.describe(
      'The user\'s message, verbatim; "" at the start of a conversation.',
    ),
    namespace: namespaceInput,
    sessionId: fields.sessionId
      .optional()
      .describe("Only recall memories from this session (core memories always count)."),
  }).strict(),
  outputSchema: z.object({
    entries: z
      .array(EntryMetadataSchema)
      .describe("The memories in the block, in block order (their text is in the block)."),
    truncated: z.boolean().describe("True when entries or characters were dropped to fit."),
  }),
  annotations: { readOnlyHint: true, openWorldHint: false },
  async run(input, { memory, access, contextDefaults, signal }) {
    const { message, namespace: requested, ...options } = input;
    const namespace = resolveNamespace(access, requested);
    // memory.toml's auto_recall* under what the call gives, as POST /v1/context.
    const built = await buildMemoryContext(
      memory,
      message,
      defined({ ...contextDefaults, ...defined(options), namespace, signal }),
    );
    return toolResult(built.text === "" ? "No relevant memories." : built.text, {
      // The block holds each entry's content, cut to fit when long (maxEntryChars).
      entries: built.entries.map((entry) =>
        metadataOf(
          entry,
          built.text.includes(entry.content)
            ? entry.content.length
            : Math.min(entry.content.length, MEMORY_CONTEXT_DEFAULTS.maxEntryChars),
        ),
      ),
      truncated: built.truncated,
    });
  },
});
