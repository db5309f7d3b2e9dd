import { namespaceInput, pinInput } from "@memory/tools";
import { z } from "zod";
import { pinEntry } from "../../operations/usage.js";
import { defineTool, mcpToolSpec } from "../tool-definition.js";
import { EntryMetadataSchema, metadataOf, toolResult } from "../tool-results.js";

export const memoryPin = defineTool({
  ...mcpToolSpec("memory_pin"),
  // POST /v1/memories/pin's body.
  inputSchema: z.object({ ...pinInput, namespace: namespaceInput }).strict(),
  outputSchema: z.object({ entry: EntryMetadataSchema.describe("The memory with its marks.") }),
  async run(input, scope) {
    const entry = await pinEntry(input, scope);
    const text = entry.pinned
      ? `"${entry.key}" is pinned: always eligible for the memory context, and never pruned.`
      : `"${entry.key}" is no longer pinned.`;
    return toolResult(text, { entry: metadataOf(entry, 0) });
  },
});
