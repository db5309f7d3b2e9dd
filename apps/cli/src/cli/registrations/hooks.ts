import { defineCommand } from "./command-registration.js";

export const hooksInstallCommand = defineCommand((parent, action) => {
  parent
    .command("install <agent>")
    .description("write memory's hooks into claude-code's settings or codex's config (idempotent)")
    .option("--project", "claude-code: ./.claude/settings.json (the default)")
    .option("--user", "claude-code: ~/.claude/settings.json; codex: ~/.codex/config.toml")
    .option("--remove", "take memory's hooks out again (other hooks are kept)")
    .option("--print", "print the resulting file instead of writing it")
    .option("--command <program>", "how the hooks run memory (default: memory, on the PATH)")
    .option("--server", "claude-code: the prompt hook asks the running `memory serve` first")
    .action(action(() => import("../../commands/hooks/hooks-install.js")));
});

/** `memory hooks install`. */
export const hooksCommand = defineCommand((parent, action) => {
  const hooks = parent.command("hooks").description("coding-agent hooks (Claude Code, Codex)");
  hooksInstallCommand(hooks, action);
});
