import { namespaceInput, storedText, storeInput } from "@memory/tools";
import { z } from "zod";
import { storeEntry } from "../../operations/entries.js";
import { defineTool, mcpToolSpec } from "../tool-definition.js";
import { EntryMetadataSchema, metadataOf, toolResult } from "../tool-results.js";

export const memoryStore = defineTool({
  ...mcpToolSpec("memory_store"),
  // POST /v1/memories' fields and bounds (without `embedding`, key optional), described once.
  inputSchema: z.object({ ...storeInput, namespace: namespaceInput }).strict(),
  outputSchema: z.object({ entry: EntryMetadataSchema }),
  async run(input, scope) {
    // Without a key, the one `memory store` derives: the same text stays one memory.
    const entry = await storeEntry(input, scope);
    // The content is the caller's own: the result does not send it back.
    return toolResult(storedText(entry), { entry: metadataOf(entry, 0) });
  },
});
