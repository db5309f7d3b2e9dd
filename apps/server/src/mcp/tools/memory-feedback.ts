import { feedbackInput, namespaceInput } from "@memory/tools";
import { z } from "zod";
import { recordFeedback } from "../../operations/usage.js";
import { FeedbackResponseSchema } from "../../wire/usage.js";
import { defineTool, mcpToolSpec } from "../tool-definition.js";
import { toolResult } from "../tool-results.js";

export const memoryFeedback = defineTool({
  ...mcpToolSpec("memory_feedback"),
  // POST /v1/feedback's body.
  inputSchema: z.object({ ...feedbackInput, namespace: namespaceInput }).strict(),
  outputSchema: FeedbackResponseSchema,
  async run(input, scope) {
    const report = await recordFeedback(input, scope);
    const ignored = report.ignored.length === 0 ? "" : `; ignored: ${report.ignored.join(", ")}`;
    const used = report.used.length === 0 ? "none" : report.used.join(", ");
    return toolResult(`Feedback recorded for ${report.recallId}: used: ${used}${ignored}.`, {
      ...report,
    });
  },
});
