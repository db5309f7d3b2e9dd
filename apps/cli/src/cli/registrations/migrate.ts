import { parsePositive } from "../option-parsers.js";
import { defineCommand } from "./command-registration.js";

export const migrateCommand = defineCommand((parent, action) => {
  parent
    .command("migrate")
    .description("copy every entry from one configuration's store to another's (idempotent)")
    .requiredOption("--from <config>", "source configuration file")
    .requiredOption("--to <config>", "target configuration file")
    .option("--batch-size <n>", "entries per write", parsePositive, 500)
    .action(action(() => import("../../commands/migrate.js")));
});
