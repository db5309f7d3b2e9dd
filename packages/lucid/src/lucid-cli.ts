import { execa } from "execa";

/** Why a run of the external command failed. */
export type LucidFailureKind = "missing" | "timeout" | "exit" | "too-large" | "canceled" | "spawn";

/** A failed run of the external command; `kind` says which failure (README, "Failures"). */
export class LucidCommandError extends Error {
  readonly kind: LucidFailureKind;

  constructor(kind: LucidFailureKind, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "LucidCommandError";
    this.kind = kind;
  }
}

export interface RunOptions {
  timeoutMs: number;
  maxOutputBytes: number;
  env: Record<string, string>;
  signal?: AbortSignal | undefined;
}

/** Values of the `{name}` placeholders of an argument template. */
export type TemplateValues = Record<string, string>;

const PLACEHOLDER = /\{([a-z]+)\}/g;

/**
 * Fills an argument template. Each template element stays exactly one argument whatever the
 * values hold (spaces, quotes, newlines, a leading `-`): arguments go to the program as a
 * vector, never through a shell. Values are substituted in one pass, so a value that contains
 * `{query}` is not expanded again. Unknown placeholders are left as written.
 */
export function fillTemplate(template: readonly string[], values: TemplateValues): string[] {
  return template.map((part) =>
    part.replace(PLACEHOLDER, (whole, name: string) => values[name] ?? whole),
  );
}

const STDERR_SHOWN = 300;

function shortened(text: string): string {
  const trimmed = text.trim();
  return trimmed.length > STDERR_SHOWN ? `${trimmed.slice(0, STDERR_SHOWN)}...` : trimmed;
}

/**
 * Runs `command args...` without a shell, stdin closed, and returns its stdout. Every failure
 * is a {@link LucidCommandError}: command not found, timeout (the process is killed), output
 * above `maxOutputBytes`, non-zero exit (with the start of stderr), canceled by `signal`.
 */
export async function runLucid(
  command: string,
  args: readonly string[],
  options: RunOptions,
): Promise<string> {
  const result = await execa(command, args, {
    shell: false,
    reject: false,
    stdin: "ignore",
    timeout: options.timeoutMs,
    maxBuffer: options.maxOutputBytes,
    forceKillAfterDelay: 200,
    env: options.env,
    encoding: "utf8",
    stripFinalNewline: false,
    windowsHide: true,
    ...(options.signal ? { cancelSignal: options.signal } : {}),
  });
  const program = `\`${command}\``;
  if (result.isCanceled) {
    throw new LucidCommandError("canceled", `${program} was canceled.`, { cause: result });
  }
  if (result.timedOut) {
    throw new LucidCommandError(
      "timeout",
      `${program} did not answer within ${options.timeoutMs} ms and was killed.`,
      { cause: result },
    );
  }
  if (result.isMaxBuffer) {
    throw new LucidCommandError(
      "too-large",
      `${program} wrote more than ${options.maxOutputBytes} bytes; its output was ignored.`,
      { cause: result },
    );
  }
  if (result.failed && result.exitCode === undefined && !result.signal) {
    const code = (result as { code?: string }).code;
    if (code === "ENOENT") {
      throw new LucidCommandError(
        "missing",
        `${program} was not found: install it or set [lucid].command to its path.`,
        { cause: result },
      );
    }
    throw new LucidCommandError(
      "spawn",
      `${program} could not be started: ${result.shortMessage}`,
      {
        cause: result,
      },
    );
  }
  if (result.failed) {
    const how = result.signal ? `was killed by ${result.signal}` : `exited with ${result.exitCode}`;
    const stderr = shortened(String(result.stderr ?? ""));
    throw new LucidCommandError("exit", `${program} ${how}${stderr ? `: ${stderr}` : ""}.`, {
      cause: result,
    });
  }
  return String(result.stdout ?? "");
}
