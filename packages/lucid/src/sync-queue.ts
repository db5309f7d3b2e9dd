/** What the queue runs: one attempt at sending one entry to the external tool. */
export type SyncAttempt = (args: readonly string[], signal: AbortSignal) => Promise<void>;

export interface SyncQueueOptions {
  attempt: SyncAttempt;
  /** Extra attempts after a failure (unless `retryable` says no). */
  retries: number;
  /** Delay before the first retry; doubles with each retry. */
  retryDelayMs: number;
  /** Jobs waiting at most; beyond it the oldest waiting job is dropped. */
  maxPending: number;
  /** Jobs running at once (never two for the same entry). */
  concurrency: number;
  /** False for failures that a retry cannot fix (the command does not exist). */
  retryable: (error: unknown) => boolean;
  /** Called when a job is given up (retries spent, not retryable, queue full, closed). */
  onDrop: (reason: string) => void;
}

/** Counters shown by `healthCheck()` (`details.lucid.sync`). */
export interface SyncStats {
  pending: number;
  succeeded: number;
  failedAttempts: number;
  dropped: number;
}

interface Job {
  id: string;
  args: readonly string[];
  attempt: number;
}

/**
 * Background syncs. A store never waits for it: `enqueue` returns at once. A newer store of
 * the same entry replaces the one still waiting (only the latest content matters), and two
 * syncs of one entry never run at once, so the tool receives them in order.
 */
export class SyncQueue {
  readonly #options: SyncQueueOptions;
  readonly #pending = new Map<string, Job>();
  readonly #running = new Set<string>();
  readonly #retryTimers = new Map<NodeJS.Timeout, Job>();
  readonly #controller = new AbortController();
  #idle: (() => void)[] = [];
  readonly stats: SyncStats = { pending: 0, succeeded: 0, failedAttempts: 0, dropped: 0 };

  constructor(options: SyncQueueOptions) {
    this.#options = options;
  }

  /** Jobs not finished yet (waiting, running or waiting for a retry). */
  get size(): number {
    return this.#pending.size + this.#running.size + this.#retryTimers.size;
  }

  enqueue(id: string, args: readonly string[]): void {
    if (this.#controller.signal.aborted) return;
    this.#pending.delete(id);
    if (this.#pending.size >= this.#options.maxPending) {
      const oldest = this.#pending.keys().next().value as string;
      this.#pending.delete(oldest);
      this.#drop("the sync queue is full");
    }
    this.#pending.set(id, { id, args, attempt: 0 });
    this.#pump();
  }

  /** Waits until every job is done; false when `timeoutMs` passed first. */
  drain(timeoutMs: number): Promise<boolean> {
    if (this.size === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.#idle = this.#idle.filter((waiter) => waiter !== done);
        resolve(false);
      }, timeoutMs);
      const done = () => {
        clearTimeout(timer);
        resolve(true);
      };
      this.#idle.push(done);
    });
  }

  /** Gives up everything: waiting jobs and retries are dropped, running commands killed. */
  abort(): number {
    const given = this.#pending.size + this.#retryTimers.size + this.#running.size;
    this.#controller.abort();
    for (const timer of this.#retryTimers.keys()) clearTimeout(timer);
    this.#retryTimers.clear();
    this.#pending.clear();
    for (let i = 0; i < given; i++) this.#drop("the memory was closed");
    this.#settle();
    return given;
  }

  #drop(reason: string): void {
    this.stats.dropped++;
    this.#options.onDrop(reason);
  }

  #pump(): void {
    this.stats.pending = this.size;
    for (const job of this.#pending.values()) {
      if (this.#running.size >= this.#options.concurrency) break;
      if (this.#running.has(job.id)) continue;
      this.#pending.delete(job.id);
      this.#running.add(job.id);
      void this.#run(job);
    }
    this.#settle();
  }

  async #run(job: Job): Promise<void> {
    try {
      await this.#options.attempt(job.args, this.#controller.signal);
      this.stats.succeeded++;
    } catch (error) {
      if (!this.#controller.signal.aborted) this.#failed(job, error);
    } finally {
      this.#running.delete(job.id);
      if (this.#controller.signal.aborted) this.#settle();
      else this.#pump();
    }
  }

  #failed(job: Job, error: unknown): void {
    this.stats.failedAttempts++;
    const message = error instanceof Error ? error.message : String(error);
    if (!this.#options.retryable(error)) {
      this.#drop(message);
      return;
    }
    if (job.attempt >= this.#options.retries) {
      this.#drop(`${message.replace(/\.$/, "")}, after ${job.attempt + 1} attempts`);
      return;
    }
    const delay = this.#options.retryDelayMs * 2 ** job.attempt;
    const timer = setTimeout(() => {
      this.#retryTimers.delete(timer);
      // A newer store of the same entry is already waiting: it supersedes this retry.
      if (!this.#pending.has(job.id)) {
        this.#pending.set(job.id, { ...job, attempt: job.attempt + 1 });
      }
      this.#pump();
    }, delay);
    this.#retryTimers.set(timer, job);
  }

  #settle(): void {
    this.stats.pending = this.size;
    if (this.size !== 0) return;
    const waiters = this.#idle;
    this.#idle = [];
    for (const waiter of waiters) waiter();
  }
}
