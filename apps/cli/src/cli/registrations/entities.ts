import { parseCount } from "../option-parsers.js";
import { defineCommand } from "./command-registration.js";

export const entitiesCommand = defineCommand((parent, action) => {
  parent
    .command("entities")
    .description(
      "the people, places, organisations and products the memory's entries name, most mentioned first (read on store when entity_reading is on)",
    )
    .option("-n, --namespace <name>", "namespace (default: default)")
    .option("--top <n>", "the N most mentioned, 1 to 1000 (default 20)", parseCount)
    .action(action(() => import("../../commands/entities.js")));
});

export const entityCommand = defineCommand((parent, action) => {
  parent
    .command("entity <name>")
    .description(
      "what the memory says about <name>: the entries that name it, newest first (exit code 3 when no entry names it)",
    )
    .option("-n, --namespace <name>", "namespace (default: default)")
    .option("-l, --limit <n>", "at most this many entries, 1 to 1000 (default 20)", parseCount)
    .option("--include-superseded", "superseded entries that name it too")
    .action(action(() => import("../../commands/entity.js")));
});
