import { type HygieneRow, runHygiene } from "@memory/lifecycle";
import type { CommandHandler } from "../cli/lazy-action.js";
import { renderTable } from "../output/table.js";

export interface HygieneOptions {
  dryRun?: boolean;
}

/**
 * `memory hygiene [--dry-run]`: prunes stale conversation and daily entries now (the same run the
 * scheduler makes every hygiene_interval_hours), over every namespace, and records it as job
 * state `hygiene`. `--dry-run` prints the same report, deletes and records nothing.
 */
const hygiene: CommandHandler<HygieneOptions> = async (context, _args, options) => {
  const { dryRun } = options;
  const { config } = context.config();
  const { memory } = await context.open("none");
  const report = await runHygiene(memory, config.memory, { dryRun: dryRun === true });
  context.output.result(report, () => {
    const rows = Object.entries(report.rows) as [string, HygieneRow][];
    return [
      ...renderTable(rows, [
        { header: "category", value: ([name]) => name },
        { header: "before", value: ([, row]) => String(row.before) },
        { header: "eligible", value: ([, row]) => String(row.eligible) },
        { header: dryRun ? "would delete" : "deleted", value: ([, row]) => String(row.deleted) },
        { header: "kept by floor", value: ([, row]) => String(row.keptByFloor) },
      ]),
      dryRun
        ? `dry run: ${report.deleted} entries would be deleted; nothing was changed.`
        : `${report.deleted} entries deleted (core is never pruned).`,
    ];
  });
};

export default hygiene;
