import { spawn } from "node:child_process";
import { performance } from "node:perf_hooks";

/** Hidden option: run the hook's work in this process (the child of {@link runFailOpen}). */
export const IN_PROCESS_FLAG = "--in-process";

export interface FailOpenRun {
  /** The `memory` arguments of the child, without {@link IN_PROCESS_FLAG}. */
  args: readonly string[];
  /** Milliseconds from this process's start after which the hook gives up. */
  budgetMs: number;
  /** Forwarded to the child; undefined for hosts that pass nothing on stdin (Codex notify). */
  stdin: NodeJS.ReadableStream | undefined;
  /** Passes the child's stderr through (MEMORY_HOOK_DEBUG=1); otherwise a hook is silent. */
  debug: boolean;
}

/**
 * Runs a hook's work in a child process and returns its stdout, or undefined when the child
 * failed or the budget ran out first; never throws. A host (Claude Code) waits for its hooks, and
 * a memory that is slow or broken must cost the user a missing context block, not a stalled or
 * failed prompt.
 *
 * Why a child process: opening a locked SQLite store blocks the thread inside better-sqlite3
 * (busy_timeout), where no timer can fire, and a worker thread blocked there cannot be stopped
 * either (process.exit waits for it). A child can always be killed.
 */
export function runFailOpen(run: FailOpenRun): Promise<string | undefined> {
  return new Promise((resolve) => {
    let settled = false;
    let child: ReturnType<typeof spawn> | undefined;
    const finish = (output: string | undefined) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      child?.kill("SIGKILL");
      // A hook run by hand from a terminal: stdin may never end, and must not keep us alive.
      (run.stdin as NodeJS.ReadStream | undefined)?.destroy?.();
      resolve(output);
    };
    // Measured from process start (performance.now()), so Node's own start-up counts too.
    const timer = setTimeout(
      () => finish(undefined),
      Math.max(0, run.budgetMs - performance.now()),
    );

    (run.stdin === undefined ? Promise.resolve("") : readAll(run.stdin)).then(
      (input) => {
        if (settled) return;
        const script = process.argv[1];
        if (script === undefined) return finish(undefined);
        child = spawn(
          process.execPath,
          [...process.execArgv, script, ...run.args, IN_PROCESS_FLAG],
          {
            stdio: ["pipe", "pipe", run.debug ? "inherit" : "ignore"],
          },
        );
        const chunks: Buffer[] = [];
        child.stdout?.on("data", (chunk: Buffer) => chunks.push(chunk));
        child.on("error", () => finish(undefined));
        child.on("close", (code) => {
          finish(code === 0 ? Buffer.concat(chunks).toString("utf8") : undefined);
        });
        child.stdin?.on("error", () => {}); // the child may exit before reading everything
        child.stdin?.end(input);
      },
      () => finish(undefined),
    );
  });
}

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) {
    chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}
