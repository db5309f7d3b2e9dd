import { defineCommand } from "./command-registration.js";

export const importCommand = defineCommand((parent, action) => {
  parent
    .command("import [file]")
    .description("import JSONL (file, or stdin when absent or -); upsert on namespace + key")
    .action(action(() => import("../../commands/import.js")));
});
