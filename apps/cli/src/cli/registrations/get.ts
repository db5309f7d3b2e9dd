import { defineCommand } from "./command-registration.js";

export const getCommand = defineCommand((parent, action) => {
  parent
    .command("get <key>")
    .description("print one entry (exit code 3 when it does not exist)")
    .option("-n, --namespace <name>", "namespace (default: default)")
    .action(action(() => import("../../commands/get.js")));
});
