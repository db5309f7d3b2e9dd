import { killProcessGroup, spawnInOwnGroup } from "./process-group.js";

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
const STDERR_KEPT_BYTES = 4 * STDERR_SHOWN;

function shortened(text: string): string {
  const trimmed = text.trim();
  return trimmed.length > STDERR_SHOWN ? `${trimmed.slice(0, STDERR_SHOWN)}...` : trimmed;
}

/**
 * Runs `command args...` without a shell, stdin closed, in its own process group, and returns
 * its stdout. Every failure is a {@link LucidCommandError}: command not found, timeout, output
 * above `maxOutputBytes`, non-zero exit (with the start of stderr), canceled by `signal`. A
 * timeout, an oversized output or a cancel kills the whole group and settles at once, without
 * waiting for pipes that an orphaned child might still hold: the timeouts are real bounds.
 */
export function runLucid(
  command: string,
  args: readonly string[],
  options: RunOptions,
): Promise<string> {
  const program = `\`${command}\``;
  return new Promise((resolve, reject) => {
    if (options.signal?.aborted) {
      reject(new LucidCommandError("canceled", `${program} was canceled.`));
      return;
    }
    let child: ReturnType<typeof spawnInOwnGroup>;
    try {
      child = spawnInOwnGroup(command, args, options.env);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      reject(
        new LucidCommandError("spawn", `${program} could not be started: ${reason}`, {
          cause: error,
        }),
      );
      return;
    }
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    let stdoutBytes = 0;
    let stderrBytes = 0;
    let settled = false;

    const settle = (failure: LucidCommandError | undefined, output = ""): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener("abort", onAbort);
      if (failure) reject(failure);
      else resolve(output);
    };
    const stop = (failure: LucidCommandError): void => {
      if (settled) return;
      killProcessGroup(child);
      settle(failure);
    };
    const onAbort = (): void => stop(new LucidCommandError("canceled", `${program} was canceled.`));
    const timer = setTimeout(
      () =>
        stop(
          new LucidCommandError(
            "timeout",
            `${program} did not answer within ${options.timeoutMs} ms and was killed.`,
          ),
        ),
      options.timeoutMs,
    );
    options.signal?.addEventListener("abort", onAbort, { once: true });

    child.stdout.on("data", (chunk: Buffer) => {
      stdoutBytes += chunk.length;
      if (stdoutBytes > options.maxOutputBytes) {
        stop(
          new LucidCommandError(
            "too-large",
            `${program} wrote more than ${options.maxOutputBytes} bytes; its output was ignored.`,
          ),
        );
        return;
      }
      stdout.push(chunk);
    });
    child.stderr.on("data", (chunk: Buffer) => {
      // Only the start of stderr is ever shown.
      if (stderrBytes < STDERR_KEPT_BYTES) stderr.push(chunk);
      stderrBytes += chunk.length;
    });
    child.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT") {
        stop(
          new LucidCommandError(
            "missing",
            `${program} was not found: install it or set [lucid].command to its path.`,
            { cause: error },
          ),
        );
        return;
      }
      stop(
        new LucidCommandError("spawn", `${program} could not be started: ${error.message}`, {
          cause: error,
        }),
      );
    });
    // "close" comes after the exit and the end of both pipes, so the output is complete.
    child.on("close", (code: number | null, signal: NodeJS.Signals | null) => {
      if (code === 0) {
        settle(undefined, Buffer.concat(stdout).toString("utf8"));
        return;
      }
      const how = signal ? `was killed by ${signal}` : `exited with ${code}`;
      const shown = shortened(Buffer.concat(stderr).toString("utf8"));
      settle(new LucidCommandError("exit", `${program} ${how}${shown ? `: ${shown}` : ""}.`));
    });
  });
}
