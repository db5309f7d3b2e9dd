import { ConfigError } from "@memory/api";

/**
 * Codex CLI runs one `notify` program (a top-level key of ~/.codex/config.toml) after each
 * agent turn, with a JSON notification (agent-turn-complete: input-messages,
 * last-assistant-message, thread-id) as its last argument. Nothing runs before a prompt, so
 * Codex gets the autosave only; standing memories go in AGENTS.md (`memory export --format
 * snapshot`) or come through the MCP server.
 */
export function codexNotifyLine(program: string): string {
  return `notify = ${JSON.stringify([...program.split(" "), "hook", "codex-notify"])}`;
}

const NOTIFY_KEY = /^\s*notify\s*=/;
const TABLE_HEADER = /^\s*\[/;

/** The config with memory's notify line first (top-level keys must precede any table). */
export function addCodexNotify(toml: string, program: string): string {
  const lines = toml.split("\n");
  const headerIndex = lines.findIndex((line) => TABLE_HEADER.test(line));
  const topLevel = headerIndex === -1 ? lines : lines.slice(0, headerIndex);
  const existing = topLevel.find((line) => NOTIFY_KEY.test(line));
  if (existing !== undefined) {
    if (existing.includes('"codex-notify"')) {
      return removeCodexNotify(toml).replace(/^/, `${codexNotifyLine(program)}\n`);
    }
    throw new ConfigError(
      `~/.codex/config.toml already has a notify program (${existing.trim()}), and Codex runs only one: remove it, or call \`memory hook codex-notify "$1"\` from your program.`,
    );
  }
  return `${codexNotifyLine(program)}\n${toml}`;
}

/** The config without memory's notify line. */
export function removeCodexNotify(toml: string): string {
  return toml
    .split("\n")
    .filter((line) => !(NOTIFY_KEY.test(line) && line.includes('"codex-notify"')))
    .join("\n");
}
