import { defineCommand } from "./command-registration.js";

export const hydrateCommand = defineCommand((parent, action) => {
  parent
    .command("hydrate")
    .description("re-import a snapshot's entries; stored namespace + keys are skipped")
    .option("--path <file>", "snapshot file (default: snapshot_path or data_dir)")
    .option("--dry-run", "only report what would be restored")
    .action(action(() => import("../../commands/hydrate.js")));
});
