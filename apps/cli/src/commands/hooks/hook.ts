import { UsageError } from "../../cli/cli-errors.js";
import type { CommandContext } from "../../cli/command-context.js";
import type { CommandHandler } from "../../cli/lazy-action.js";
import { readStdin } from "../../io/read-stdin.js";
import { runFailOpen } from "./fail-open.js";
import { HOOK_BUDGETS_MS, HOOK_EVENTS, type HookEvent } from "./hook-budgets.js";
import {
  type HookWork,
  parseCodexNotification,
  promptContext,
  saveCodexTurn,
  saveLastTurn,
  sessionStartContext,
} from "./hook-events.js";
import { parseHookPayload } from "./hook-payload.js";

interface HookOptions {
  budgetMs?: number;
  namespace?: string;
  inProcess?: boolean;
}

/**
 * `memory hook <event>`: what a coding agent's hook runs. It always exits 0; it prints the
 * memory context (prompt, session-start) when the work finished within the budget, and nothing
 * when the store is missing, locked, slow or broken: the agent then runs without memory
 * instead of failing or waiting. The work itself runs in a child process (fail-open.ts).
 */
const hookCommand: CommandHandler = async (context, args, options) => {
  const [event, argument] = args as [string, string | undefined];
  if (!HOOK_EVENTS.includes(event as HookEvent)) {
    throw new UsageError(`unknown hook event ${event}: expected ${HOOK_EVENTS.join(", ")}`);
  }
  const { budgetMs, namespace, inProcess } = options as HookOptions;
  if (inProcess) return runInProcess(context, event as HookEvent, argument, namespace);

  const childArgs = [
    ...(context.globals.config === undefined ? [] : ["--config", context.globals.config]),
    "hook",
    event,
    ...(argument === undefined ? [] : [argument]),
    ...(namespace === undefined ? [] : ["--namespace", namespace]),
  ];
  const output = await runFailOpen({
    args: childArgs,
    budgetMs: budgetMs ?? budgetFromEnvironment() ?? HOOK_BUDGETS_MS[event as HookEvent],
    // Codex passes its notification as an argument and nothing on stdin.
    stdin: event === "codex-notify" ? undefined : process.stdin,
    debug: process.env.MEMORY_HOOK_DEBUG === "1",
  });
  if (output) await context.output.write(output);
};

function budgetFromEnvironment(): number | undefined {
  const value = Number(process.env.MEMORY_HOOK_BUDGET_MS);
  return Number.isFinite(value) && value > 0 ? value : undefined;
}

async function runInProcess(
  context: CommandContext,
  event: HookEvent,
  argument: string | undefined,
  namespace: string | undefined,
): Promise<void> {
  const payload = event === "codex-notify" ? {} : parseHookPayload(await readStdin());
  const { config } = context.config();
  // Keyword-only: loading the embedding model (about a second for `local`) would eat the budget.
  // Entries saved here get their vectors later (`memory backfill`, or the server's worker).
  const { memory } = await context.open("none");
  const work: HookWork = { memory, config, payload, namespace };
  let text: string;
  switch (event) {
    case "prompt":
      text = await promptContext(work);
      break;
    case "session-start":
      text = await sessionStartContext(work);
      break;
    case "stop":
      text = await saveLastTurn(work);
      break;
    case "codex-notify":
      text = await saveCodexTurn(work, parseCodexNotification(argument ?? ""));
      break;
  }
  if (text !== "") await context.output.write(text.endsWith("\n") ? text : `${text}\n`);
}

export default hookCommand;
