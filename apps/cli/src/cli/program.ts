import { Command } from "commander";
import type { Output } from "../output/output.js";
import { VERSION } from "../version.js";
import { lazyAction, type RunState } from "./lazy-action.js";
import type { ActionOf } from "./registrations/command-registration.js";
import { COMMANDS } from "./registrations/index.js";

/**
 * The program with its global options, and every command (src/cli/registrations/, one file
 * each); the implementations load lazily.
 */
export function buildProgram(output: Output, state: RunState): Command {
  const program = new Command("memory")
    .description("Long-term memory for AI agents: store, recall and maintain a memory store.")
    .version(VERSION, "-V, --version", "print the version")
    .option(
      "--config <file>",
      "configuration file (default: ./memory.toml, then $XDG_CONFIG_HOME/memory/memory.toml)",
    )
    .option("--json", "machine-readable output: one JSON document (JSON lines for streams)")
    .option("--verbose", "on error, print the cause chain")
    .showSuggestionAfterError(true)
    // Set before any subcommand is added, so every subcommand inherits them.
    .exitOverride()
    // Commander's own error text is replaced by the one-line format of run-cli.
    .configureOutput({ outputError: () => {} });
  const action: ActionOf = (load) => lazyAction(output, state, load);
  for (const register of COMMANDS) register(program, action);
  return program;
}
