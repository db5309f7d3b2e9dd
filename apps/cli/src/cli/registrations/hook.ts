import { Option } from "commander";
import { HOOK_EVENTS } from "../../commands/hooks/hook-budgets.js";
import { parsePositive } from "../option-parsers.js";
import { defineCommand } from "./command-registration.js";

export const hookCommand = defineCommand((parent, action) => {
  parent
    .command("hook <event> [notification]")
    .description(
      `what an agent's hook runs (${HOOK_EVENTS.join(", ")}): reads its JSON on stdin; fails open (prints nothing, exit 0)`,
    )
    .option("--budget-ms <ms>", "give up after this long (default 1500; stop 10000)", parsePositive)
    .option("-n, --namespace <name>", "namespace (default: default)")
    .option("--server", "prompt: ask the running `memory serve` ([server] host/port) first")
    .addOption(new Option("--in-process", "run the work here, without the watchdog").hideHelp())
    .action(action(() => import("../../commands/hooks/hook.js")));
});
