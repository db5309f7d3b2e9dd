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
import { contextFromServer } from "./server-context.js";

/** How long `--server` waits for the server before recalling from the store itself. */
const SERVER_WAIT_MS = 700;

export interface HookOptions {
  budgetMs?: number;
  namespace?: string;
  server?: boolean;
  inProcess?: boolean;
}

/**
 * `memory hook <event>`: what a coding agent's hook runs. It always exits 0; it prints the
 * memory context (prompt, session-start) when the work finished within the budget, and nothing
 * when the store is missing, locked, slow or broken: the agent then runs without memory
 * instead of failing or waiting. The work itself runs in a child process (fail-open.ts).
 */
const hookCommand: CommandHandler<HookOptions> = async (context, args, options) => {
  const [event, argument] = args as [string, string | undefined];
  if (!HOOK_EVENTS.includes(event as HookEvent)) {
    throw new UsageError(`unknown hook event ${event}: expected ${HOOK_EVENTS.join(", ")}`);
  }
  const { budgetMs, namespace, server, inProcess } = options;
  if (inProcess) return runInProcess(context, event as HookEvent, argument, { namespace, server });

  const childArgs = [
    ...(context.globals.config === undefined ? [] : ["--config", context.globals.config]),
    "hook",
    event,
    ...(argument === undefined ? [] : [argument]),
    ...(namespace === undefined ? [] : ["--namespace", namespace]),
    ...(server ? ["--server"] : []),
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
  { namespace, server }: Pick<HookOptions, "namespace" | "server">,
): Promise<void> {
  const payload = event === "codex-notify" ? {} : parseHookPayload(await readStdin());
  const { config, location } = context.config();
  if (server && event === "prompt" && (payload.prompt ?? "").trim() !== "") {
    // The watchdog (parent) bounds the whole run; this only stops a hung request from using all
    // of it, so the keyword-only fallback below still has time.
    const answer = await contextFromServer(
      config,
      location.file,
      payload.prompt ?? "",
      namespace,
      AbortSignal.timeout(SERVER_WAIT_MS),
    );
    if (answer !== undefined) return printBlock(context, answer);
  }
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
  await printBlock(context, text);
}

async function printBlock(context: CommandContext, text: string): Promise<void> {
  if (text !== "") await context.output.write(text.endsWith("\n") ? text : `${text}\n`);
}

export default hookCommand;
