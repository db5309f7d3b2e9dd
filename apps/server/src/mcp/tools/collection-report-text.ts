import type { CollectionSyncReport } from "@memory/lifecycle";

// Per-file problems listed in a tool's text; the structured part carries them all. A folder
// of binary files with .md names could otherwise fill the answer with one line each.
const PROBLEMS_SHOWN = 20;

/** One sync report as a model reads it: what changed, then the files that could not be indexed. */
export function syncReportText(report: CollectionSyncReport): string {
  const { collection } = report;
  if (report.busy)
    return `${collection}: not synced, another process is syncing it right now; its index is current once that sync ends.`;
  if (report.error)
    return `${collection}: not synced (${report.error.code}): ${report.error.message} Nothing in its index changed.`;
  const { written, reusedEmbeddings, deleted } = report.fragments;
  const lines = [
    `${collection}: ${report.notes} note(s); ${report.added} added, ${report.changed} changed, ${report.unchanged} unchanged, ${report.removed} removed; ${written} fragment(s) written (${reusedEmbeddings} kept their embedding), ${deleted} deleted.`,
  ];
  for (const problem of report.problems.slice(0, PROBLEMS_SHOWN)) {
    const where = problem.line === undefined ? problem.path : `${problem.path}:${problem.line}`;
    lines.push(`  - ${where} ${problem.code}: ${problem.message}`);
  }
  const more = report.problems.length - PROBLEMS_SHOWN;
  if (more > 0) lines.push(`  (${more} more problem(s) in the structured result)`);
  return lines.join("\n");
}
