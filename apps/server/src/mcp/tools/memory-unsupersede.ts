import { namespaceInput, unsupersedeInput } from "@memory/tools";
import { z } from "zod";
import { unsupersedeEntry } from "../../operations/repair.js";
import { defineTool, mcpToolSpec } from "../tool-definition.js";
import { EntryMetadataSchema, metadataOf, toolResult } from "../tool-results.js";

export const memoryUnsupersede = defineTool({
  ...mcpToolSpec("memory_unsupersede"),
  // POST /v1/unsupersede's body.
  inputSchema: z.object({ ...unsupersedeInput, namespace: namespaceInput }).strict(),
  outputSchema: z.object({ entry: EntryMetadataSchema.describe("The restored memory.") }),
  async run(input, scope) {
    const entry = await unsupersedeEntry(input, scope);
    return toolResult(
      `"${entry.key}" is current again: memory_recall returns it like any other memory.`,
      { entry: metadataOf(entry, 0) },
    );
  },
});
