import { defineCommand } from "./command-registration.js";

export const hygieneCommand = defineCommand((parent, action) => {
  parent
    .command("hygiene")
    .description("prune stale conversation and daily entries now (never core), every namespace")
    .option("--dry-run", "report what would be deleted; delete nothing")
    .action(action(() => import("../../commands/hygiene.js")));
});
