import { defineCommand } from "./command-registration.js";

export const purgeCommand = defineCommand((parent, action) => {
  parent
    .command("purge")
    .description("delete every entry of a namespace or of a session")
    .option(
      "-n, --namespace <name>",
      "purge this namespace (with --session: only that session in it)",
    )
    .option("-s, --session <id>", "purge this session")
    .option("-y, --yes", "do not ask for confirmation")
    .action(action(() => import("../../commands/purge.js")));
});
