import { parsePositive } from "../option-parsers.js";
import { defineCommand } from "./command-registration.js";

export const reindexCommand = defineCommand((parent, action) => {
  parent
    .command("reindex")
    .description("re-embed every entry with the configured provider and record its fingerprint")
    .option("--batch-size <n>", "texts per provider call", parsePositive)
    .action(action(() => import("../../commands/reindex.js")));
});
