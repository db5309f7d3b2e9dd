import { defineCommand } from "./command-registration.js";
import { withFilters } from "./filter-options.js";

export const countCommand = defineCommand((parent, action) => {
  withFilters(
    parent
      .command("count")
      .description("count entries")
      .option("--include-superseded", "include entries replaced by newer ones"),
  ).action(action(() => import("../../commands/count.js")));
});
