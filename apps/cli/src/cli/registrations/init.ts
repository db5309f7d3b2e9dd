import { defineCommand } from "./command-registration.js";

export const initCommand = defineCommand((parent, action) => {
  parent
    .command("init")
    .description("write ./memory.toml with the embedded default (SQLite under ./.memory)")
    .option("--force", "overwrite an existing file")
    .option("--embedding-provider <name>", "embedding provider (local, noop, openai, ...)", "local")
    .action(action(() => import("../../commands/init.js")));
});
