import type { Command } from "commander";
import type { Output } from "../output/output.js";
import { CommandContext, type GlobalOptions } from "./command-context.js";
import type { ExitCode } from "./exit-codes.js";

/** Shared between run-cli and the command that ran: a command may finish with a non-zero code. */
export interface RunState {
  exitCode: ExitCode;
}

/** A command implementation: positional arguments as commander parsed them, then its options. */
export type CommandHandler = (
  context: CommandContext,
  args: readonly unknown[],
  options: Record<string, unknown>,
) => Promise<void>;

export interface CommandModule {
  default: CommandHandler;
}

/**
 * Wraps a command module in a commander action that imports it only when the command runs, so
 * starting `memory get` never loads the code (or the dependencies) of `import` or `serve`.
 */
export function lazyAction(output: Output, state: RunState, load: () => Promise<CommandModule>) {
  return async (...params: unknown[]): Promise<void> => {
    const command = params.at(-1) as Command;
    const options = command.opts();
    const globals = command.optsWithGlobals() as GlobalOptions & Record<string, unknown>;
    const module = await load();
    const context = new CommandContext(
      { config: globals.config, json: output.json, verbose: output.verbose },
      output,
    );
    try {
      await module.default(context, params.slice(0, -2), options);
    } finally {
      await context.dispose();
      state.exitCode = context.exitCode;
    }
  };
}
