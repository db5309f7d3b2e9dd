import type { Command } from "commander";
import type { Output } from "../output/output.js";
import { CommandContext, type GlobalOptions } from "./command-context.js";
import type { ExitCode } from "./exit-codes.js";

/** Shared between run-cli and the command that ran: a command may finish with a non-zero code. */
export interface RunState {
  exitCode: ExitCode;
}

/** Options of a command that declares none. */
export type NoOptions = Record<never, never>;

/**
 * A command implementation: positional arguments as commander parsed them, then its options,
 * typed as its registration (src/cli/registrations/) declares them.
 */
export type CommandHandler<Options extends object = NoOptions> = (
  context: CommandContext,
  args: readonly unknown[],
  options: Options,
) => Promise<void>;

export interface CommandModule<Options extends object = NoOptions> {
  default: CommandHandler<Options>;
}

/**
 * Wraps a command module in a commander action that imports it only when the command runs, so
 * starting `memory get` never loads the code (or the dependencies) of `import` or `serve`.
 */
export function lazyAction<Options extends object>(
  output: Output,
  state: RunState,
  load: () => Promise<CommandModule<Options>>,
) {
  return async (...params: unknown[]): Promise<void> => {
    const command = params.at(-1) as Command;
    const options = command.opts<Options & Record<string, unknown>>();
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
