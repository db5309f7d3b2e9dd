import type { Sleep } from "@memory/core";

/**
 * A {@link Sleep} that waits until the test wakes it (or its signal aborts), recording every
 * requested delay: background workers and schedulers run step by step, never on the wall clock.
 */
export function manualSleep() {
  const delays: number[] = [];
  const waiting: (() => void)[] = [];
  const sleep: Sleep = (ms, signal) =>
    new Promise<void>((resolve) => {
      delays.push(ms);
      waiting.push(resolve);
      signal.addEventListener("abort", () => resolve(), { once: true });
    });
  return {
    sleep,
    /** Every delay asked for, in order. */
    delays,
    /** How many sleeps are waiting to be woken. */
    get waiting() {
      return waiting.length;
    },
    /** Wakes the oldest waiting sleep. */
    wake() {
      waiting.shift()?.();
    },
    /** Wakes every waiting sleep. */
    wakeAll() {
      for (const resolve of waiting.splice(0)) resolve();
    },
  };
}
