import { parseCount } from "../option-parsers.js";
import { defineCommand } from "./command-registration.js";
import { withFilters } from "./filter-options.js";

export const listCommand = defineCommand((parent, action) => {
  withFilters(
    parent
      .command("list")
      .description("list entries, newest first, as a table")
      .option("-l, --limit <n>", "maximum rows", parseCount, 50)
      .option("--offset <n>", "skip this many rows", parseCount, 0)
      .option("--include-superseded", "include entries replaced by newer ones"),
  ).action(action(() => import("../../commands/list.js")));
});
