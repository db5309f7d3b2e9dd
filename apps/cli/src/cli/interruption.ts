import { EXIT_CODES } from "./exit-codes.js";

/**
 * Runs a long job that stops cleanly on the first SIGINT or SIGTERM: the signal aborts `signal`,
 * the job finishes its current unit of work (an import commits or rolls back its batch) and
 * reports what it kept. A second signal exits at once, as a user pressing Ctrl-C twice expects.
 */
export async function interruptible<T>(
  job: (signal: AbortSignal, interrupted: () => NodeJS.Signals | undefined) => Promise<T>,
): Promise<T> {
  const controller = new AbortController();
  let received: NodeJS.Signals | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    if (received) process.exit(EXIT_CODES.interrupted);
    received = signal;
    process.stderr.write(`\n${signal}: stopping after the current batch (again to quit at once)\n`);
    controller.abort(new Error(`stopped by ${signal}`));
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  try {
    return await job(controller.signal, () => received);
  } finally {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
  }
}

/**
 * Yields `source` until `signal` aborts, then ends at once, even while `source` waits for
 * input that may never come (a pipe on stdin), so the consumer can finish cleanly.
 */
export async function* untilAborted<T>(
  source: AsyncIterable<T>,
  signal: AbortSignal,
): AsyncGenerator<T> {
  const iterator = source[Symbol.asyncIterator]();
  const aborted = new Promise<"aborted">((resolve) => {
    signal.addEventListener("abort", () => resolve("aborted"), { once: true });
  });
  for (;;) {
    if (signal.aborted) return;
    const next = iterator.next();
    const result = await Promise.race([next, aborted]);
    if (result === "aborted") {
      // The pending read is abandoned; the caller destroys the input stream.
      next.catch(() => {});
      return;
    }
    if (result.done) return;
    yield result.value;
  }
}
