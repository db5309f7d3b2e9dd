import type { EntryUsage } from "@memory/api";
import { namespaceInput, usageInput } from "@memory/tools";
import { z } from "zod";
import { usageReport } from "../../operations/usage.js";
import { UsageResponseSchema } from "../../wire/usage.js";
import { defineTool, mcpToolSpec } from "../tool-definition.js";
import { toolResult } from "../tool-results.js";

/** `- key: used 3 of 5 surfaced, on 2 days, 3 queries [pinned]`, one line per memory. */
function usageLine(entry: EntryUsage): string {
  const { stats } = entry;
  const marks = [
    entry.pinned ? "pinned" : undefined,
    entry.snoozedUntil ? `snoozed until ${entry.snoozedUntil}` : undefined,
  ].filter(Boolean);
  return `- ${entry.key}: used ${stats.used} of ${stats.surfaced} surfaced (ignored ${stats.ignored}), on ${stats.days} day(s), for ${stats.queries} query(ies)${marks.length ? ` [${marks.join(", ")}]` : ""}`;
}

export const memoryUsage = defineTool({
  ...mcpToolSpec("memory_usage"),
  // GET /v1/usage's query.
  inputSchema: z.object({ ...usageInput, namespace: namespaceInput }).strict(),
  outputSchema: UsageResponseSchema,
  async run(input, scope) {
    const report = await usageReport(input, scope);
    const sections = [
      report.entries.length === 0
        ? `No usage recorded in namespace "${report.namespace}" yet.`
        : `Usage in namespace "${report.namespace}", most used first:\n${report.entries.map(usageLine).join("\n")}`,
    ];
    if (report.pinCandidates)
      sections.push(
        report.pinCandidates.length === 0
          ? "Pin candidates: none."
          : `Pin candidates (used often, on many days):\n${report.pinCandidates.map(usageLine).join("\n")}`,
      );
    if (report.snoozeCandidates)
      sections.push(
        report.snoozeCandidates.length === 0
          ? "Snooze candidates: none."
          : `Snooze candidates (surfaced often, almost never used):\n${report.snoozeCandidates.map(usageLine).join("\n")}`,
      );
    return toolResult(sections.join("\n\n"), { ...report });
  },
});
