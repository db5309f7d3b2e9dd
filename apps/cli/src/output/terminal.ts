/** What the terminal allows: decided once per run from stdout and the environment. */
export interface TerminalFeatures {
  /** ANSI colors in human output. */
  color: boolean;
  /** Redrawn progress bars (on stderr). */
  progress: boolean;
  /** stdin is a terminal: prompts are possible, and `store` without content has nothing to read. */
  interactiveInput: boolean;
}

/**
 * Colors and progress bars only when a person is watching: stdout is a terminal, `NO_COLOR` is
 * unset (https://no-color.org: any value disables), and the output is not `--json`.
 */
export function detectTerminal(
  json: boolean,
  env: NodeJS.ProcessEnv = process.env,
): TerminalFeatures {
  const noColor = env.NO_COLOR !== undefined;
  const stdoutTty = process.stdout.isTTY === true;
  const fancy = stdoutTty && !noColor && !json && env.TERM !== "dumb";
  return {
    color: fancy,
    progress: fancy && process.stderr.isTTY === true,
    interactiveInput: process.stdin.isTTY === true,
  };
}
