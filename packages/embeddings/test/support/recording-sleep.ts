import { sleep as timerSleep } from "../../src/http/retry-delay.js";

/**
 * A `sleep` for the providers' retry waits that records each requested delay. By default it
 * does not wait at all, so retry tests check the chosen delays (Retry-After, backoff) instead of
 * measuring wall-clock time. With `real: true` it delegates to the library's own timer-based
 * sleep (for tests of cancellation) and resolves `started` when the first wait begins.
 */
export function recordingSleep(options: { real?: boolean } = {}) {
  const delays: number[] = [];
  let markStarted!: () => void;
  const started = new Promise<void>((resolve) => {
    markStarted = resolve;
  });
  const sleep = (ms: number, signal?: AbortSignal): Promise<void> => {
    delays.push(ms);
    markStarted();
    if (options.real) return timerSleep(ms, signal);
    return signal?.aborted ? Promise.reject(signal.reason) : Promise.resolve();
  };
  return { sleep, delays, started };
}
