import { defineCommand } from "./command-registration.js";

export const supersedeCommand = defineCommand((parent, action) => {
  parent
    .command("supersede <old> <new>")
    .description(
      "mark entry <old> superseded by entry <new>: recall hides it, its text is kept (exit code 3 when either does not exist)",
    )
    .option("-n, --namespace <name>", "namespace (default: default)")
    .action(action(() => import("../../commands/supersede.js")));
});

export const unsupersedeCommand = defineCommand((parent, action) => {
  parent
    .command("unsupersede <key>")
    .description(
      "make a superseded entry current again (exit code 3 when it does not exist, 1 when it is not superseded)",
    )
    .option("-n, --namespace <name>", "namespace (default: default)")
    .action(action(() => import("../../commands/unsupersede.js")));
});

export const historyCommand = defineCommand((parent, action) => {
  parent
    .command("history <key>")
    .description(
      "what an entry said over time, newest first: same-key stores keep the previous content (exit code 3 when there is nothing)",
    )
    .option("-n, --namespace <name>", "namespace (default: default)")
    .action(action(() => import("../../commands/history.js")));
});
