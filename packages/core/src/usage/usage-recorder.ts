import type { DriverUsage, UsageEvent } from "@memory/api";
import { abortableSleep, type Sleep } from "../sleep.js";
import { applyUsageEvents } from "./usage-stats.js";

/**
 * How long a recall's events wait for other recalls' before they are written together. Every
 * commit to a SQLite file empties the page cache of every other process reading it (SQLite
 * cannot tell which pages changed), and a recall wrote its usage in a commit of its own: beside
 * a second server worker, each recall read most of its pages from the OS again (`read()`
 * copies, WAL lookups; 10% more CPU per recall). A commit every 50 ms at most leaves the other
 * worker's cache alone for dozens of its recalls (docs/benchmarks.md, issue 29's ninth round).
 */
export const USAGE_WRITE_DELAY_MS = 50;

export interface UsageRecorderOptions {
  /** Default {@link USAGE_WRITE_DELAY_MS}. */
  delayMs?: number;
  /** The wait (tests inject one). */
  sleep?: Sleep;
}

/**
 * Writes the `surfaced` events of recalls without making a recall wait for them: events queue
 * here and go to the driver in one batch, at most `delayMs` after the first of them (under load,
 * many recalls share one transaction), through `surface` when the driver has it (records brought
 * up to date later), `record` otherwise. Feedback, reports, `flush` and close drain the queue at
 * once, so this process always reads its own events; another process sees them within
 * `delayMs` and the write ({@link awaitOtherProcesses}). A failed write is logged and dropped:
 * usage is advice, and a recall must never fail or slow down because of it.
 */
export class UsageRecorder {
  readonly #usage: DriverUsage;
  readonly #log: (message: string) => void;
  readonly #delayMs: number;
  readonly #sleep: Sleep;
  #queue: UsageEvent[] = [];
  #writing: Promise<void> | undefined;
  /** Drains waiting: no batch waits for company while one does. */
  #urgent = 0;
  /** Ends the current wait early. */
  #wake: AbortController | undefined;

  constructor(
    usage: DriverUsage,
    log: (message: string) => void,
    options: UsageRecorderOptions = {},
  ) {
    this.#usage = usage;
    this.#log = log;
    this.#delayMs = options.delayMs ?? USAGE_WRITE_DELAY_MS;
    this.#sleep = options.sleep ?? abortableSleep;
  }

  /** Queues events; they are written with the others of the next `delayMs`. */
  add(events: readonly UsageEvent[]): void {
    if (events.length === 0) return;
    this.#queue.push(...events);
    this.#writing ??= this.#drainLater();
  }

  /** Resolves once every event queued so far is written (or its write failed and was logged). */
  async drain(): Promise<void> {
    this.#urgent++;
    try {
      this.#wake?.abort();
      while (this.#writing) await this.#writing;
    } finally {
      this.#urgent--;
    }
  }

  /** Writes events now, after what is queued, and fails when the write does (feedback). */
  async write(events: readonly UsageEvent[]): Promise<void> {
    await this.drain();
    await this.#usage.record(events, applyUsageEvents);
  }

  /**
   * Waits as long as another process may keep a recall's events before writing them: for a
   * recall id this process does not know, served by another worker an instant ago.
   */
  awaitOtherProcesses(): Promise<void> {
    return this.#sleep(2 * this.#delayMs, new AbortController().signal);
  }

  async #drainLater(): Promise<void> {
    try {
      while (this.#queue.length > 0) {
        await this.#pause();
        const batch = this.#queue;
        this.#queue = [];
        try {
          await (this.#usage.surface
            ? this.#usage.surface(batch)
            : this.#usage.record(batch, applyUsageEvents));
        } catch (error) {
          const reason = error instanceof Error ? error.message : String(error);
          this.#log(`usage: ${batch.length} recall event(s) not recorded: ${reason}`);
        }
      }
    } finally {
      this.#writing = undefined;
    }
  }

  async #pause(): Promise<void> {
    if (this.#urgent > 0) return;
    const wake = new AbortController();
    this.#wake = wake;
    try {
      await this.#sleep(this.#delayMs, wake.signal);
    } finally {
      if (this.#wake === wake) this.#wake = undefined;
    }
  }
}
