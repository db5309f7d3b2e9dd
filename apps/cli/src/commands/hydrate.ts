import path from "node:path";
import { configuredSnapshotPath, hydrateFromSnapshot } from "@memory/core";
import { EXIT_CODES } from "../cli/exit-codes.js";
import { interruptible } from "../cli/interruption.js";
import type { CommandHandler } from "../cli/lazy-action.js";

// A human report lists this many problems; --json lists them all.
const SHOWN_PROBLEMS = 20;

/**
 * `memory hydrate [--path P] [--dry-run]`: re-imports the snapshot's entries with their ids and
 * timestamps. Entries whose namespace + key is already stored are skipped (never overwritten),
 * so running it twice, or after an interrupted run, imports each entry once. Unreadable lines
 * and refused entries are listed with their line numbers and make the exit code 1; SIGINT or
 * SIGTERM stop it after the current batch (exit 130).
 */
export interface HydrateOptions {
  path?: string;
  dryRun?: boolean;
}

const hydrateCommand: CommandHandler<HydrateOptions> = async (context, _args, options) => {
  const { path: given, dryRun } = options;
  const cli = context.config();
  const target = path.resolve(given ?? configuredSnapshotPath(cli.config));
  // This command hydrates explicitly (or only looks, with --dry-run): no automatic run on open.
  const { memory } = await context.open("none", {
    ...cli,
    config: { ...cli.config, memory: { ...cli.config.memory, auto_hydrate: false } },
  });
  const report = await interruptible((signal) =>
    hydrateFromSnapshot(memory, target, { dryRun: dryRun === true, signal }),
  );
  if (report.problems.length > 0) context.exitCode = EXIT_CODES.failure;
  if (report.interrupted) context.exitCode = EXIT_CODES.interrupted;
  context.output.result(report, () => {
    const entries = `${report.imported} ${report.imported === 1 ? "entry" : "entries"}`;
    const lines = [
      report.dryRun
        ? `would restore ${entries} from ${target} (${report.skipped} already stored; nothing written: --dry-run)`
        : report.interrupted
          ? `interrupted: restored ${entries} from ${target} before stopping (run it again to finish; nothing is duplicated)`
          : `restored ${entries} from ${target} (${report.skipped} already stored)`,
    ];
    if (report.problems.length === 0) return lines;
    lines.push(
      `${report.problems.length} ${report.problems.length === 1 ? "line was" : "lines were"} not restored (fix them and run it again; restored entries are not duplicated):`,
    );
    for (const problem of report.problems.slice(0, SHOWN_PROBLEMS)) {
      lines.push(`  line ${problem.line}: ${problem.message}`);
    }
    if (report.problems.length > SHOWN_PROBLEMS)
      lines.push(`  ... ${report.problems.length - SHOWN_PROBLEMS} more (see --json)`);
    return lines;
  });
};

export default hydrateCommand;
