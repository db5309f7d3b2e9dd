import { namespaceInput } from "@memory/tools";
import { z } from "zod";
import { consolidate } from "../../operations/turns.js";
import { ConflictDecisionSchema } from "../../wire/entry.js";
import { ConsolidateRequestSchema } from "../../wire/requests.js";
import { defineTool, mcpToolSpec } from "../tool-definition.js";
import { EntryMetadataSchema, metadataOf, toolResult } from "../tool-results.js";
import { turnInputs } from "./tool-inputs.js";

export const memoryConsolidate = defineTool({
  ...mcpToolSpec("memory_consolidate"),
  // POST /v1/consolidate's body.
  inputSchema: ConsolidateRequestSchema.extend({
    ...turnInputs,
    namespace: namespaceInput,
  }).strict(),
  outputSchema: z.object({
    daily: EntryMetadataSchema.optional().describe("The log entry of the turn."),
    promoted: EntryMetadataSchema.optional().describe("The message saved as a core memory."),
    importance: z.number(),
    notPromoted: z.enum(["importance", "too-short", "filtered"]).optional(),
    superseded: z.array(z.string()).describe("Keys of older memories it replaced."),
    conflict: ConflictDecisionSchema.optional(),
    skipped: z.enum(["empty", "filtered"]).optional(),
  }),
  async run(input, scope) {
    const { daily, promoted, ...report } = await consolidate(input, scope);
    const lines: string[] = [];
    if (report.skipped === "empty") lines.push("Nothing to consolidate: the message is empty.");
    else if (report.skipped === "filtered")
      lines.push(
        "Not consolidated: automated turns (cron, heartbeat, memory context) are skipped.",
      );
    else {
      lines.push(`Logged the turn as "${daily?.key}" (daily).`);
      lines.push(
        promoted
          ? `Saved the message as core memory "${promoted.key}".`
          : "The message was not saved as a core memory (no rule or decision in it).",
      );
      if (report.superseded.length > 0)
        lines.push(`It replaces the older memory ${report.superseded.join(", ")}.`);
    }
    // The contents are the caller's own turn: the result does not send them back.
    return toolResult(lines.join(" "), {
      ...report,
      ...(daily ? { daily: metadataOf(daily, 0) } : {}),
      ...(promoted ? { promoted: metadataOf(promoted, 0) } : {}),
    });
  },
});
