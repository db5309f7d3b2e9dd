import type { Command } from "commander";
import { collectList, parseTime } from "../option-parsers.js";

/** Filters shared by list, count, recall and export; applied before any limit. */
export function withFilters(command: Command, options: { session?: boolean } = {}): Command {
  command
    .option("-n, --namespace <name>", "namespace (default: default)")
    .option(
      "-c, --category <names>",
      "only these categories (repeatable or comma-separated)",
      collectList,
    )
    .option("--since <time>", "updated at or after: ISO-8601 or relative (30m, 12h, 7d, 2w)", (v) =>
      parseTime(v),
    )
    .option("--until <time>", "updated before: ISO-8601 or relative", (v) => parseTime(v));
  if (options.session !== false)
    command.option("-s, --session <id>", "only entries of this session");
  return command;
}
