/**
 * Waits `ms`; resolves early when `signal` aborts. Background workers and schedulers take one as
 * an option so tests inject time instead of waiting on the wall clock.
 */
export type Sleep = (ms: number, signal: AbortSignal) => Promise<void>;

/**
 * The real {@link Sleep}: a timer that ends early on abort. `keepAlive: false` unrefs the
 * timer, so a background worker that is only waiting never keeps the process alive.
 */
export function abortableSleep(
  ms: number,
  signal: AbortSignal,
  options: { keepAlive?: boolean } = {},
): Promise<void> {
  return new Promise<void>((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    if (options.keepAlive === false) timer.unref?.();
    function done() {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
    signal.addEventListener("abort", done, { once: true });
  });
}
