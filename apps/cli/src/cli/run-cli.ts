import { CommanderError } from "commander";
import { formatCauseChain, formatErrorLine } from "../output/format-error.js";
import { Output } from "../output/output.js";
import { detectTerminal } from "../output/terminal.js";
import { errorCodeFor, exitCodeFor, UsageError } from "./cli-errors.js";
import { EXIT_CODES, type ExitCode } from "./exit-codes.js";
import type { RunState } from "./lazy-action.js";
import { buildProgram } from "./program.js";

// Flags needed before commander runs, so even a usage error honours --json and --verbose.
function earlyFlag(args: readonly string[], flag: string): boolean {
  const end = args.indexOf("--");
  return (end === -1 ? args : args.slice(0, end)).includes(flag);
}

/** Runs the `memory` command line; returns the exit code instead of exiting. */
export async function runCli(args: readonly string[]): Promise<ExitCode> {
  const json = earlyFlag(args, "--json");
  const verbose = earlyFlag(args, "--verbose");
  const output = new Output({ json, verbose, terminal: detectTerminal(json) });
  // `memory export | head` closes the pipe early; that is a normal end, not a crash.
  process.stdout.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code === "EPIPE") process.exit(EXIT_CODES.ok);
    throw error;
  });

  const state: RunState = { exitCode: EXIT_CODES.ok };
  const program = buildProgram(output, state);
  try {
    await program.parseAsync([...args], { from: "user" });
    return state.exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      if (["commander.helpDisplayed", "commander.version"].includes(error.code))
        return EXIT_CODES.ok;
      // `memory` alone prints help on stderr: that is a usage error.
      if (error.code === "commander.help" || error.code === "commander.executeSubCommandAsync") {
        return EXIT_CODES.usage;
      }
      return report(output, new UsageError(error.message.replace(/^error:\s*/, "")));
    }
    return report(output, error);
  }
}

function report(output: Output, error: unknown): ExitCode {
  const exitCode = exitCodeFor(error);
  const line = formatErrorLine(error);
  output.stderr.write(`${output.style.red("error:")} ${line}\n`);
  if (output.verbose) {
    for (const cause of formatCauseChain(error)) output.stderr.write(`  ${cause}\n`);
  }
  if (output.json) {
    const details = (error as { details?: Record<string, unknown> }).details;
    const document = {
      error: {
        code: errorCodeFor(error),
        message: line,
        exitCode,
        ...(details ? { details } : {}),
      },
    };
    output.stdout.write(`${JSON.stringify(document)}\n`);
  }
  return exitCode;
}
