import type { Command } from "commander";
import type { CommandModule } from "../lazy-action.js";

/**
 * Turns a lazily imported command module into a commander action (src/cli/lazy-action.ts). The
 * module's handler states the options it takes (`CommandHandler<RecallCommandOptions>`); they
 * are the ones its registration declares.
 */
export type ActionOf = <Options extends object>(
  load: () => Promise<CommandModule<Options>>,
) => (...params: unknown[]) => Promise<void>;

/**
 * One CLI command: adds its name, arguments, options and help to `parent` (the program, or a
 * group such as `config`) and wires the action that imports its implementation when it runs,
 * so starting `memory get` never loads the code of `serve`.
 */
export type CommandRegistration = (parent: Command, action: ActionOf) => void;

export function defineCommand(registration: CommandRegistration): CommandRegistration {
  return registration;
}
