import { parseUnitInterval } from "../option-parsers.js";
import { defineCommand } from "./command-registration.js";

export const storeCommand = defineCommand((parent, action) => {
  parent
    .command("store [content...]")
    .description("store an entry (content from the arguments, or stdin when absent or -)")
    .option(
      "-k, --key <key>",
      "entry key (default: derived from the content, so storing twice is idempotent)",
    )
    .option("-c, --category <name>", "core, daily, conversation or a custom name", "core")
    .option("-n, --namespace <name>", "namespace (default: default)")
    .option("-s, --session <id>", "session id")
    .option("--importance <0..1>", "importance from 0 to 1", parseUnitInterval)
    .action(action(() => import("../../commands/store.js")));
});
