import { z } from "zod";
import { resolveNamespace } from "../../access.js";
import { consolidateOne } from "../../agent-turns.js";
import { ConflictDecisionSchema, ConsolidateRequestSchema } from "../../schemas.js";
import { defineTool } from "../tool-definition.js";
import { EntryMetadataSchema, metadataOf, toolResult } from "../tool-results.js";
import { namespaceInput, turnInputs } from "./tool-inputs.js";

/**
 * The example is pinned by test/mcp-tool-examples.test.ts on both MCP channels: conflicts are
 * found by shared words, so it names a rule that restates the old one with a reversal.
 */
export const MEMORY_CONSOLIDATE_DESCRIPTION =
  'Consolidate one conversation turn, after you have answered it: the turn is kept as a dated log entry ("daily"), and when the user\'s message states a rule or decision (words such as "always", "never", "must", "important", "rule", "decision") it is also saved as a durable "core" memory. A saved rule replaces an older core memory that says the opposite in mostly the same words (e.g. "Never use spaces for indentation, always use tabs" replaces "Always use spaces for indentation"); a rule worded differently from the one it contradicts ("Always use tabs" after "The user prefers spaces") is kept beside it, so forget the old one with memory_forget. No language model is involved, so it is cheap: call it once per turn, with the user\'s message verbatim and your reply. Chit-chat is only logged; automated lines (starting with "[cron:", "[heartbeat" or "[Memory context]") are skipped. To save a specific fact in your own words, use memory_store instead.';

export const memoryConsolidate = defineTool({
  name: "memory_consolidate",
  title: "Log a turn and keep its rules",
  description: MEMORY_CONSOLIDATE_DESCRIPTION,
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
  annotations: { destructiveHint: false, idempotentHint: false, openWorldHint: false },
  async run(input, { memory, access, turnSettings }) {
    const namespace = resolveNamespace(access, input.namespace);
    const { daily, promoted, ...report } = await consolidateOne(
      memory,
      input,
      namespace,
      turnSettings,
    );
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
