import type { EntryUsage } from "@memory/api";
import type { CommandHandler } from "../cli/lazy-action.js";
import { renderTable } from "../output/table.js";
import { marksOf } from "./shared/describe-marks.js";

export interface UsageCommandOptions {
  candidates?: boolean;
  limit?: number;
  namespace?: string;
}

function usageTable(entries: readonly EntryUsage[], width: number): string[] {
  return renderTable(
    entries,
    [
      { header: "surfaced", value: (row) => String(row.stats.surfaced) },
      { header: "used", value: (row) => String(row.stats.used) },
      { header: "ignored", value: (row) => String(row.stats.ignored) },
      { header: "days", value: (row) => String(row.stats.days) },
      { header: "queries", value: (row) => String(row.stats.queries) },
      { header: "last used", value: (row) => row.stats.lastUsedAt ?? "-" },
      { header: "marks", value: (row) => marksOf(row) || "-" },
      { header: "key", value: (row) => row.key, flexible: true, minWidth: 12 },
    ],
    width,
  );
}

/** `memory usage [--candidates]`: the namespace's usage statistics (docs/usage.md). */
const usage: CommandHandler<UsageCommandOptions> = async (context, _args, options) => {
  const { memory } = await context.open("none");
  const report = await memory.usage({
    ...(options.namespace === undefined ? {} : { namespace: options.namespace }),
    ...(options.limit === undefined ? {} : { limit: options.limit }),
    ...(options.candidates ? { candidates: true } : {}),
  });
  context.output.result(report, () => {
    const width = Math.max(process.stdout.columns ?? 100, 60);
    const section = (title: string, entries: readonly EntryUsage[] | undefined, none: string) =>
      entries === undefined
        ? []
        : ["", title, ...(entries.length === 0 ? [`  ${none}`] : usageTable(entries, width))];
    return [
      `usage in namespace ${report.namespace}, most used first`,
      ...(report.entries.length === 0
        ? ["  no usage recorded yet (recalls record what they surface)"]
        : usageTable(report.entries, width)),
      ...section(
        "pin candidates (used often, on many days and queries):",
        report.pinCandidates,
        "none",
      ),
      ...section(
        "snooze candidates (surfaced often, almost never used):",
        report.snoozeCandidates,
        "none",
      ),
    ];
  });
};

export default usage;
