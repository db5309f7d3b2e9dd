import { Option } from "commander";
import { oneOf, parseCount, parseUnitInterval } from "../option-parsers.js";
import { defineCommand } from "./command-registration.js";
import { withFilters } from "./filter-options.js";

export const explainCommand = defineCommand((parent, action) => {
  withFilters(
    parent
      .command("explain [query...]")
      .description(
        "why, and why not: every candidate of a recall (or with --context, of the memory context), kept or dropped with the reason and every factor",
      )
      .option("-k, --key <key>", "say plainly why this key is, or is not, in the results")
      .option("--context", "explain the memory context for the message (as `memory context`)")
      .option(
        "-l, --limit <n>",
        "maximum results (default: 5; --context: auto_recall_limit)",
        parseCount,
      )
      .addOption(
        new Option("-m, --mode <mode>", "search mode (default: search_mode)").argParser(
          oneOf(["hybrid", "bm25", "embedding"] as const),
        ),
      )
      .option(
        "--min-score <0..1>",
        "the threshold (default: min_score; --context: auto_recall_min_score)",
        parseUnitInterval,
      )
      .option("--include-superseded", "include entries replaced by newer ones")
      .option("--max-chars <n>", "--context: bound on the whole block (default: 2000)", parseCount),
  ).action(action(() => import("../../commands/explain.js")));
});
