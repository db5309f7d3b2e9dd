import { namespaceInput, supersedeInput } from "@memory/tools";
import { z } from "zod";
import { supersedeEntry } from "../../operations/repair.js";
import { defineTool, mcpToolSpec } from "../tool-definition.js";
import { EntryMetadataSchema, metadataOf, toolResult } from "../tool-results.js";

export const memorySupersede = defineTool({
  ...mcpToolSpec("memory_supersede"),
  // POST /v1/supersede's body.
  inputSchema: z.object({ ...supersedeInput, namespace: namespaceInput }).strict(),
  outputSchema: z.object({
    superseded: z.boolean().describe("Always true: a missing key is an error."),
    entry: EntryMetadataSchema.describe("The older memory, now superseded."),
    replacedBy: EntryMetadataSchema.describe("The memory that replaces it."),
  }),
  async run(input, scope) {
    const { entry, replacedBy } = await supersedeEntry(input, scope);
    return toolResult(
      `"${entry.key}" is now superseded by "${replacedBy.key}": memory_recall no longer returns it (its text is kept; memory_unsupersede brings it back).`,
      { superseded: true, entry: metadataOf(entry, 0), replacedBy: metadataOf(replacedBy, 0) },
    );
  },
});
