import { parsePositive } from "../option-parsers.js";
import { defineCommand } from "./command-registration.js";

export const consolidateCommand = defineCommand((parent, action) => {
  parent
    .command("consolidate [message...]")
    .description(
      "consolidate a turn without an LLM: a daily entry, promotion to core when important, superseding what it contradicts",
    )
    .option("-n, --namespace <name>", "namespace (default: default)")
    .option("-s, --session <id>", "session id")
    .option("--reply <text>", "the assistant's reply to the turn")
    .option(
      "--files",
      "markdown backend: the chat model rewrites MEMORY.md from the recent daily files, behind guards",
    )
    .option("--days <n>", "with --files: daily files of the last n days (default 7)", parsePositive)
    .option("--force", "with --files: allow more than 25% of the entries to disappear")
    .option("--dry-run", "with --files: check the answer and show the diff; write nothing")
    .action(action(() => import("../../commands/consolidate.js")));
});
