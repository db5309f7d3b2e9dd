import { parseCount, parseUnitInterval } from "../option-parsers.js";
import { defineCommand } from "./command-registration.js";

export const contextCommand = defineCommand((parent, action) => {
  parent
    .command("context [message...]")
    .description("the memory context for a message, as POST /v1/context builds it (empty: core)")
    .option("-n, --namespace <name>", "namespace (default: default)")
    .option("-s, --session <id>", "the conversation's session id")
    .option("-l, --limit <n>", "recalled entries at most (default: auto_recall_limit)", parseCount)
    .option(
      "--min-score <0..1>",
      "leave out recalled entries below this (default: auto_recall_min_score)",
      parseUnitInterval,
    )
    .option("--max-chars <n>", "bound on the whole block, 50 to 100000 (default: 2000)", parseCount)
    .action(action(() => import("../../commands/context.js")));
});
