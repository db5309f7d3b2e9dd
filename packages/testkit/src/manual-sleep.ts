import type { Sleep } from "@memory/core";

/**
 * A {@link Sleep} that waits until the test wakes it (or its signal aborts), recording every
 * requested delay: background workers and schedulers run step by step, never on the wall clock.
 */
export function manualSleep() {
  const delays: number[] = [];
  const waiting: (() => void)[] = [];
  const watchers: { count: number; resolve: () => void }[] = [];
  const sleep: Sleep = (ms, signal) =>
    new Promise<void>((resolve) => {
      delays.push(ms);
      waiting.push(resolve);
      for (const watcher of watchers.filter((watcher) => delays.length >= watcher.count)) {
        watchers.splice(watchers.indexOf(watcher), 1);
        watcher.resolve();
      }
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
    /** Resolves once `count` sleeps have been asked for (at once if they were): no polling. */
    slept(count: number): Promise<void> {
      if (delays.length >= count) return Promise.resolve();
      return new Promise<void>((resolve) => watchers.push({ count, resolve }));
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
