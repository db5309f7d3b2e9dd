import { Option } from "commander";
import { oneOf, parseCount, parseUnitInterval } from "../option-parsers.js";
import { defineCommand } from "./command-registration.js";
import { withFilters } from "./filter-options.js";

export const recallCommand = defineCommand((parent, action) => {
  withFilters(
    parent
      .command("recall [query...]")
      .description("find the entries that best match a query (empty: most recent)")
      .option("-l, --limit <n>", "maximum results", parseCount, 5)
      .addOption(
        new Option("-m, --mode <mode>", "search mode (default: search_mode)").argParser(
          oneOf(["hybrid", "bm25", "embedding"] as const),
        ),
      )
      .option("--min-score <0..1>", "drop results scoring below this", parseUnitInterval)
      .option("--include-superseded", "include entries replaced by newer ones")
      .option("--include-snoozed", "include entries snoozed for now (`memory snooze`)")
      .option(
        "--no-track",
        "record nothing about this recall and print no recall id (usage_tracking otherwise)",
      )
      .option("--no-collections", "search memory only, not the collections of notes")
      .option(
        "--collection <names...>",
        "search memory and only these collections (default: every collection)",
      )
      .option(
        "--explain",
        "show keyword rank and score, vector rank and cosine, fused score and decay",
      ),
  ).action(action(() => import("../../commands/recall.js")));
});
