import { mkdir, readFile, realpath, rename, writeFile } from "node:fs/promises";
import { homedir } from "node:os";
import path from "node:path";
import { ConfigError } from "@memory/api";
import { UsageError } from "../../cli/cli-errors.js";
import type { CommandHandler } from "../../cli/lazy-action.js";
import { addMemoryHooks, type ClaudeSettings, removeMemoryHooks } from "./claude-code-settings.js";
import { addCodexNotify, removeCodexNotify } from "./codex-config.js";

export const HOOK_AGENTS = ["claude-code", "codex"] as const;

export interface InstallOptions {
  project?: boolean;
  user?: boolean;
  remove?: boolean;
  print?: boolean;
  command?: string;
  server?: boolean;
}

/**
 * `memory hooks install <agent>`: writes memory's hooks into the agent's own configuration,
 * idempotently (installing twice gives the same file; --remove takes only ours out). --print
 * shows the resulting file instead of writing it.
 */
const hooksInstall: CommandHandler<InstallOptions> = async (context, args, options) => {
  const [agent] = args as [string];
  const { project, user, remove, print, server, command = "memory" } = options;
  if (project && user) throw new UsageError("--project and --user exclude each other");
  if (command.trim() === "") throw new UsageError("--command must not be empty");

  let file: string;
  let update: (text: string | undefined) => string;
  if (agent === "claude-code") {
    file = user
      ? path.join(process.env.CLAUDE_CONFIG_DIR ?? path.join(homedir(), ".claude"), "settings.json")
      : path.join(process.cwd(), ".claude", "settings.json");
    update = (text) => {
      const settings = parseSettings(text, file);
      const next = remove ? removeMemoryHooks(settings) : addMemoryHooks(settings, command, server);
      return `${JSON.stringify(next, null, 2)}\n`;
    };
  } else if (agent === "codex") {
    if (project) throw new UsageError("codex reads only ~/.codex/config.toml: use --user");
    file = path.join(process.env.CODEX_HOME ?? path.join(homedir(), ".codex"), "config.toml");
    update = (text) =>
      remove ? removeCodexNotify(text ?? "") : addCodexNotify(text ?? "", command);
  } else {
    throw new UsageError(`unknown agent ${agent}: expected ${HOOK_AGENTS.join(" or ")}`);
  }

  const target = await resolveExisting(file);
  const before = await readFile(target, "utf8").catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return undefined;
    throw error;
  });
  const after = update(before);
  if (print) {
    await context.output.write(after);
    return;
  }
  const changed = after !== before;
  if (changed) {
    await mkdir(path.dirname(target), { recursive: true });
    // Write then rename: Claude Code may read the file at any moment.
    const temporary = `${target}.memory-${process.pid}.tmp`;
    await writeFile(temporary, after);
    await rename(temporary, target);
  }
  context.output.result({ agent, file: target, changed, removed: Boolean(remove) }, () =>
    changed
      ? `${remove ? "removed memory's hooks from" : "wrote memory's hooks to"} ${target}`
      : `${target} already ${remove ? "has no memory hooks" : "has memory's hooks"}; unchanged`,
  );
};

function parseSettings(text: string | undefined, file: string): ClaudeSettings {
  if (text === undefined || text.trim() === "") return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(`${file} is not valid JSON: fix it first; nothing was written.`, {
      cause: error,
    });
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
    throw new ConfigError(`${file} must hold a JSON object; nothing was written.`);
  }
  return parsed as ClaudeSettings;
}

/** The file itself when the path is a symlink (a dotfiles repository), so the link survives. */
async function resolveExisting(file: string): Promise<string> {
  try {
    return await realpath(file);
  } catch {
    return file;
  }
}

export default hooksInstall;
