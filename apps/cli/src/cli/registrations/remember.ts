import { defineCommand } from "./command-registration.js";

export const rememberCommand = defineCommand((parent, action) => {
  parent
    .command("remember [turn...]")
    .description(
      "store a conversation turn, then the durable facts the chat model finds in it as core entries",
    )
    .option("-n, --namespace <name>", "namespace (default: default)")
    .option("-s, --session <id>", "session id")
    .option("--reply <text>", "the assistant's reply to the turn")
    .action(action(() => import("../../commands/remember.js")));
});
