/**
 * The two clocks of the agent-loop benchmark.
 *
 * `wall`: the loop runs now, so every stored entry is seconds old when the questions come.
 *
 * `dated`: the loop runs on each session's date and the questions on the conversation's last
 * date, so entries are weeks and months old. `autosaveTurn` takes a clock (`now`) but uses it for
 * the keys only: the store stamps `createdAt`/`updatedAt` with `new Date()` (`memory.store` takes
 * no date), and `buildMemoryContext` takes no clock at all. The benchmark therefore shifts the
 * process clock: `Date` (constructor without arguments and `Date.now`) runs at real speed from a
 * chosen instant, and the same clock is passed to `autosaveTurn({ now })` and to
 * `createSqliteMemory({ now })` (recall's time decay), so keys, timestamps and decay agree.
 */

export type ClockMode = "wall" | "dated";

const RealDate = Date;
const realNow = Date.now.bind(Date);
let offsetMs = 0;

class ShiftedDate extends RealDate {
  constructor(...args: unknown[]) {
    if (args.length === 0) super(realNow() + offsetMs);
    else super(...(args as [string | number | Date]));
  }

  static override now(): number {
    return realNow() + offsetMs;
  }
}

let installed = false;

/** Replaces the global `Date` by one whose "now" can be moved (the `dated` mode only). */
export function installShiftedClock(): void {
  if (installed) return;
  globalThis.Date = ShiftedDate as DateConstructor;
  installed = true;
}

/** The benchmark's clock: what `Date.now()` says, shifted or not. */
export function benchNow(): number {
  return realNow() + offsetMs;
}

/**
 * Moves "now" to `at` (the `dated` mode) and lets it run from there; in `wall` mode it does
 * nothing, so the same replay code serves both modes.
 */
export function setClock(mode: ClockMode, at: Date): void {
  if (mode === "wall") return;
  installShiftedClock();
  offsetMs = at.getTime() - realNow();
}

/** Back to the wall clock (between runs of different modes in one process). */
export function resetClock(): void {
  offsetMs = 0;
}
