import { namespaceInput, snoozeInput } from "@memory/tools";
import { z } from "zod";
import { snoozeEntry } from "../../operations/usage.js";
import { defineTool, mcpToolSpec } from "../tool-definition.js";
import { EntryMetadataSchema, metadataOf, toolResult } from "../tool-results.js";

export const memorySnooze = defineTool({
  ...mcpToolSpec("memory_snooze"),
  // POST /v1/memories/snooze's body.
  inputSchema: z.object({ ...snoozeInput, namespace: namespaceInput }).strict(),
  outputSchema: z.object({ entry: EntryMetadataSchema.describe("The memory with its marks.") }),
  async run(input, scope) {
    const entry = await snoozeEntry(input, scope);
    const text =
      entry.snoozedUntil === undefined
        ? `"${entry.key}" is awake: memory_recall and the memory context return it again.`
        : `"${entry.key}" is snoozed until ${entry.snoozedUntil}: memory_recall leaves it out until then (includeSnoozed shows it).`;
    return toolResult(text, { entry: metadataOf(entry, 0) });
  },
});
