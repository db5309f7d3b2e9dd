import { defineCommand } from "./command-registration.js";

export const mineCommand = defineCommand((parent, action) => {
  parent
    .command("mine <paths...>")
    .description(
      "import past conversations (Claude Code, Codex, ChatGPT, Claude.ai, Slack, plain text): one entry per exchange, rerun-safe",
    )
    .option(
      "--format <name>",
      "read every file as claude-code, codex, chatgpt, claude-ai, slack or text (default: detected per file)",
    )
    .option("-c, --category <name>", "category of the entries", "conversation")
    .option("-n, --namespace <name>", "namespace (default: default)")
    .option("--dry-run", "read everything and report what would be stored; store nothing")
    .option(
      "--synthesize",
      "after the import, the chat model (chat_provider) extracts durable facts as core entries",
    )
    .action(action(() => import("../../commands/mine.js")));
});
