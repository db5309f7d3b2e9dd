import type { DriverUsage, UsageEvent } from "@memory/api";
import { applyUsageEvents } from "./usage-stats.js";

/**
 * Writes the `surfaced` events of recalls without making a recall wait for them: events queue
 * here and go to the driver in one batch as soon as the previous batch is written (under load,
 * many recalls share one transaction; when idle, a recall's events are stored within a tick),
 * through `surface` when the driver has it (records brought up to date later), `record`
 * otherwise. Feedback, reports and close drain the queue first, so this process always reads
 * its own events. A failed write is logged and dropped: usage is advice, and a recall must
 * never fail or slow down because of it.
 */
export class UsageRecorder {
  readonly #usage: DriverUsage;
  readonly #log: (message: string) => void;
  #queue: UsageEvent[] = [];
  #writing: Promise<void> | undefined;

  constructor(usage: DriverUsage, log: (message: string) => void) {
    this.#usage = usage;
    this.#log = log;
  }

  /** Queues events; they are written after the current batch. */
  add(events: readonly UsageEvent[]): void {
    if (events.length === 0) return;
    this.#queue.push(...events);
    this.#writing ??= this.#drainSoon();
  }

  /** Resolves once every event queued so far is written (or its write failed and was logged). */
  async drain(): Promise<void> {
    while (this.#writing) await this.#writing;
  }

  /** Writes events now, after what is queued, and fails when the write does (feedback). */
  async write(events: readonly UsageEvent[]): Promise<void> {
    await this.drain();
    await this.#usage.record(events, applyUsageEvents);
  }

  async #drainSoon(): Promise<void> {
    // Let the recalls of this tick join the batch.
    await new Promise<void>((resolve) => setImmediate(resolve));
    try {
      while (this.#queue.length > 0) {
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
}
