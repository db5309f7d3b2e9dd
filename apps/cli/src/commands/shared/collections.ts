import path from "node:path";
import type { Memory } from "@memory/api";
import {
  type CollectionInput,
  type CollectionSyncReport,
  collectionsFromConfig,
  syncCollections,
} from "@memory/lifecycle";
import type { CommandContext } from "../../cli/command-context.js";
import { EXIT_CODES } from "../../cli/exit-codes.js";

// A human report lists this many problems; --json lists them all.
const SHOWN = 20;

/** The `[collections.*]` tables of this run's configuration, and the folder they are relative to. */
export function configuredCollections(context: CommandContext): {
  configured: CollectionInput[];
  baseDir: string;
} {
  const { config, location } = context.config();
  return {
    configured: collectionsFromConfig(config),
    baseDir: location.file ? path.dirname(location.file) : process.cwd(),
  };
}

/** Syncs the collections (all, or the named ones) with this run's configuration. */
export async function syncConfigured(
  context: CommandContext,
  memory: Memory,
  names?: string[],
): Promise<CollectionSyncReport[]> {
  const { configured, baseDir } = configuredCollections(context);
  return syncCollections(memory, { configured, baseDir, ...(names ? { names } : {}) });
}

/** Human lines of sync reports; a problem or an error makes the command exit 1. */
export function describeSyncReports(
  context: CommandContext,
  reports: readonly CollectionSyncReport[],
): string[] {
  const lines: string[] = [];
  if (reports.length === 0) lines.push("no collections (add one with `memory collection add`)");
  for (const report of reports) {
    if (report.error) {
      context.exitCode = EXIT_CODES.failure;
      lines.push(`${report.collection}: not synced: ${report.error.message}`);
      continue;
    }
    if (report.busy) {
      lines.push(`${report.collection}: another process is syncing it; nothing done`);
      continue;
    }
    const { fragments } = report;
    lines.push(
      `${report.collection}: ${report.notes} notes (${report.added} added, ${report.changed} changed, ${report.unchanged} unchanged, ${report.removed} removed); ${fragments.written} fragments written (${fragments.reusedEmbeddings} with a kept embedding), ${fragments.deleted} deleted`,
    );
    const problems = report.problems.filter((problem) => problem.code !== "SYMLINK");
    if (problems.length > 0) context.exitCode = EXIT_CODES.failure;
    for (const problem of report.problems.slice(0, SHOWN))
      lines.push(
        `  ${problem.line === undefined ? problem.path : `${problem.path}:${problem.line}`}: ${problem.code}: ${problem.message}`,
      );
    if (report.problems.length > SHOWN)
      lines.push(`  ... ${report.problems.length - SHOWN} more (see --json)`);
  }
  return lines;
}
