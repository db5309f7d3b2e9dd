import { parsePositive } from "../option-parsers.js";
import { defineCommand } from "./command-registration.js";

export const backfillCommand = defineCommand((parent, action) => {
  parent
    .command("backfill")
    .description("embed entries that have no embedding yet (deferred or failed)")
    .option("--batch-size <n>", "texts per provider call", parsePositive)
    .action(action(() => import("../../commands/backfill.js")));
});
