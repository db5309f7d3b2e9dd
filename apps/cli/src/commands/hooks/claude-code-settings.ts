import { HOOK_BUDGETS_MS, type HookEvent } from "./hook-budgets.js";

/** Claude Code's hook events that memory uses, and the `memory hook` event each one runs. */
export const CLAUDE_CODE_EVENTS = {
  SessionStart: "session-start",
  UserPromptSubmit: "prompt",
  Stop: "stop",
} as const satisfies Record<string, HookEvent>;

interface CommandHook {
  type: "command";
  command: string;
  timeout?: number;
  [other: string]: unknown;
}
interface MatcherGroup {
  matcher?: string;
  hooks: CommandHook[];
  [other: string]: unknown;
}
export type ClaudeSettings = Record<string, unknown> & {
  hooks?: Record<string, MatcherGroup[]>;
};

/** `memory hook prompt`, with the program the user runs memory as (default `memory`). */
export function hookCommandLine(program: string, event: HookEvent, server = false): string {
  return `${program} hook ${event}${server && event === "prompt" ? " --server" : ""}`;
}

/** A hook this tool wrote, whatever program path and options it was written with. */
function isOurs(hook: CommandHook, event: HookEvent): boolean {
  return typeof hook.command === "string" && new RegExp(` hook ${event}( |$)`).test(hook.command);
}

/**
 * The settings without memory's hooks: other hooks, matchers and keys are kept as they are;
 * groups and events left empty are dropped.
 */
export function removeMemoryHooks(settings: ClaudeSettings): ClaudeSettings {
  const hooks = { ...(settings.hooks ?? {}) };
  for (const [name, event] of Object.entries(CLAUDE_CODE_EVENTS)) {
    const groups = hooks[name];
    if (!Array.isArray(groups)) continue;
    const kept = groups
      .map((group) => ({
        ...group,
        hooks: (Array.isArray(group.hooks) ? group.hooks : []).filter((h) => !isOurs(h, event)),
      }))
      .filter((group) => group.hooks.length > 0);
    if (kept.length > 0) hooks[name] = kept;
    else delete hooks[name];
  }
  const { hooks: _old, ...rest } = settings;
  return Object.keys(hooks).length > 0 ? { ...rest, hooks } : rest;
}

/**
 * The settings with memory's three hooks, each once: installing twice gives the same file. The
 * host's `timeout` (seconds) is the hook's budget plus a margin, so Claude Code never kills a
 * hook that is within its budget.
 */
export function addMemoryHooks(
  settings: ClaudeSettings,
  program: string,
  server = false,
): ClaudeSettings {
  const cleaned = removeMemoryHooks(settings);
  const hooks = { ...(cleaned.hooks ?? {}) };
  for (const [name, event] of Object.entries(CLAUDE_CODE_EVENTS)) {
    const timeout = Math.ceil(HOOK_BUDGETS_MS[event] / 1000) + 3;
    hooks[name] = [
      ...(hooks[name] ?? []),
      { hooks: [{ type: "command", command: hookCommandLine(program, event, server), timeout }] },
    ];
  }
  return { ...cleaned, hooks };
}
