import { defineCommand } from "./command-registration.js";

export const curateCommand = defineCommand((parent, action) => {
  parent
    .command("curate")
    .description(
      "the chat model (chat_provider) proposes deletions and merges of core/daily entries; validated, then applied",
    )
    .option("--dry-run", "validate and report the proposal; change nothing")
    .option("-n, --namespace <name>", "curate only this namespace (default: every namespace)")
    .action(action(() => import("../../commands/curate.js")));
});
