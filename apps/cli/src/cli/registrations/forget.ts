import { defineCommand } from "./command-registration.js";

export const forgetCommand = defineCommand((parent, action) => {
  parent
    .command("forget <key>")
    .description("delete one entry (exit code 3 when it does not exist)")
    .option("-n, --namespace <name>", "namespace (default: default)")
    .action(action(() => import("../../commands/forget.js")));
});
