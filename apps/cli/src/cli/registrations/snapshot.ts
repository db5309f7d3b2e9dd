import { defineCommand } from "./command-registration.js";

export const snapshotCommand = defineCommand((parent, action) => {
  parent
    .command("snapshot")
    .description("write the core entries to the Markdown snapshot now (atomically)")
    .option("--path <file>", "snapshot file (default: snapshot_path or data_dir)")
    .action(action(() => import("../../commands/snapshot.js")));
});
