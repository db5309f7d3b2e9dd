import { MemoryTimeoutError } from "@memory/api";
import { abortableSleep, type Sleep } from "./sleep.js";

/** When the worker wakes up by itself; every field has a default (tests inject `sleep`). */
export interface EmbeddingWorkerOptions {
  /**
   * Delay before rows left pending by an earlier process are drained after open. Short-lived
   * processes (a CLI command) close before it fires and never pay for the backlog. Default 1000 ms.
   */
  resumeDelayMs?: number;
  /** First retry after a failed batch; doubles per failure up to `maxRetryDelayMs`. Default 5000 ms. */
  retryDelayMs?: number;
  /** Default 300 000 ms (5 minutes). */
  maxRetryDelayMs?: number;
  /** Default: an unref'd `setTimeout`, so a waiting worker never keeps the process alive. */
  sleep?: Sleep;
}

/** One batch read from the store: where the scan continues and how many entries it holds. */
export interface PendingBatch<Cursor> {
  readonly cursor: Cursor;
  readonly size: number;
}

/** The store side of the worker: reads pending rows and embeds them. */
export interface PendingSource<Cursor, Batch extends PendingBatch<Cursor>> {
  /**
   * Up to one batch of pending rows after `after` in the store's own order (doc id, entry id),
   * from the start when `after` is undefined; undefined when none is left.
   */
  next(after: Cursor | undefined): Batch | undefined | Promise<Batch | undefined>;
  /** Embeds and writes one batch (only where the content hash still matches); throws on failure. */
  embed(batch: Batch, signal: AbortSignal): Promise<void>;
}

// A waiting worker never keeps the process alive.
const sleepUnref: Sleep = (ms, signal) => abortableSleep(ms, signal, { keepAlive: false });

// Give waiting I/O (HTTP requests of a server using this store) a turn, even when the provider
// resolved without ever leaving the microtask queue; also lets a burst of stores share a batch.
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Background embedding for `defer_embedding`, shared by the backends (each supplies a
 * {@link PendingSource}). The database is the queue: an entry whose current
 * content hash has no vector is pending. A store only signals that work exists; the worker scans
 * pending rows by doc id, one batch at a time, reads their content when it embeds them and writes
 * a vector only if the content is unchanged. Nothing is kept in memory but the batch in flight,
 * so memory use is bounded by `embeddingBatchSize` texts however many entries wait, and a store
 * never blocks or fails because of the worker.
 *
 * A failed batch stops the drain (no retry loop against a broken provider): the error is kept in
 * `lastError` and the drain starts again on the next store, or after a backoff that doubles per
 * consecutive failure.
 */
export class EmbeddingWorker<Cursor, Batch extends PendingBatch<Cursor>> {
  readonly #source: PendingSource<Cursor, Batch>;
  readonly #sleep: Sleep;
  readonly #resumeDelayMs: number;
  readonly #retryDelayMs: number;
  readonly #maxRetryDelayMs: number;
  /** Aborted by stop(): cancels waits and the provider call in flight. */
  readonly #stop = new AbortController();
  #running: Promise<void> | undefined;
  /** A store signalled since the current pass began: scan again from the start when it ends. */
  #signalled = false;
  /** Work this process added that no completed pass has covered yet (close() waits for it). */
  #localWork = false;
  /** A timer (resume or retry) will start a drain; flush() starts it at once instead. */
  #wake: AbortController | undefined;
  #failures = 0;
  #inFlight = 0;
  /** The last failure of a background batch (or of an inline embedding, set by the store path). */
  lastError: unknown;

  constructor(source: PendingSource<Cursor, Batch>, options: EmbeddingWorkerOptions = {}) {
    this.#source = source;
    this.#sleep = options.sleep ?? sleepUnref;
    this.#resumeDelayMs = options.resumeDelayMs ?? 1000;
    this.#retryDelayMs = options.retryDelayMs ?? 5000;
    this.#maxRetryDelayMs = options.maxRetryDelayMs ?? 300_000;
  }

  /** Entries whose content the worker holds right now: at most one batch, 0 when idle. */
  get pending(): number {
    return this.#inFlight;
  }

  /** `running` (a drain is on), `waiting` (a resume or a retry after a failure is scheduled), `idle` or `stopped`. */
  get state(): "running" | "waiting" | "idle" | "stopped" {
    if (this.#stop.signal.aborted) return "stopped";
    if (this.#running) return "running";
    return this.#wake ? "waiting" : "idle";
  }

  /** Work is available (a store or import committed entries without a vector). Never blocks. */
  signal(): void {
    if (this.#stop.signal.aborted) return;
    this.#signalled = true;
    this.#localWork = true;
    this.#start();
  }

  /** After open: drains rows an earlier process left pending, once `resumeDelayMs` passed. */
  resume(): void {
    this.#schedule(this.#resumeDelayMs);
  }

  #schedule(ms: number): void {
    if (this.#stop.signal.aborted || this.#wake) return;
    const wake = new AbortController();
    this.#wake = wake;
    const stop = this.#stop.signal;
    const either = AbortSignal.any([wake.signal, stop]);
    this.#sleep(ms, either)
      .catch(() => {})
      .then(() => {
        if (this.#wake === wake) this.#wake = undefined;
        if (!wake.signal.aborted && !stop.aborted) this.#start();
      });
  }

  #start(): void {
    if (this.#running || this.#stop.signal.aborted) return;
    // A pending resume or retry is covered by this drain.
    this.#wake?.abort();
    this.#wake = undefined;
    this.#running = this.#drain().finally(() => {
      this.#running = undefined;
    });
  }

  async #drain(): Promise<void> {
    await nextTurn();
    const stop = this.#stop.signal;
    let after: Cursor | undefined;
    this.#signalled = false;
    try {
      for (;;) {
        if (stop.aborted) return;
        const batch = await this.#source.next(after);
        if (!batch) {
          if (!this.#signalled) break;
          // Entries stored again during the pass may sit below the cursor: one more pass.
          this.#signalled = false;
          after = undefined;
          continue;
        }
        this.#inFlight = batch.size;
        try {
          await this.#source.embed(batch, stop);
        } finally {
          this.#inFlight = 0;
        }
        after = batch.cursor;
        this.#failures = 0;
        await nextTurn();
      }
      this.#localWork = false;
      // A whole pass succeeded: whatever failed before is embedded now.
      this.lastError = undefined;
    } catch (error) {
      if (stop.aborted) return;
      this.lastError = error;
      this.#failures++;
      const delay = Math.min(
        this.#retryDelayMs * 2 ** Math.min(this.#failures - 1, 30),
        this.#maxRetryDelayMs,
      );
      this.#schedule(delay);
    }
  }

  /**
   * Resolves when the drain is idle (a pending resume starts now); rejects with a TIMEOUT error
   * after `timeoutMs`. A failed drain counts as idle: its entries stay pending in the database.
   */
  async flush(timeoutMs: number): Promise<void> {
    if (this.#wake && this.#failures === 0) this.#start();
    const deadline = Date.now() + timeoutMs;
    while (this.#running) {
      const remaining = deadline - Date.now();
      if (remaining <= 0) {
        throw new MemoryTimeoutError(
          `Deferred embeddings did not finish within ${timeoutMs} ms; the entries are stored, stay pending in the database and are embedded by the background worker or backfillEmbeddings(). Pass a larger timeoutMs to flush().`,
        );
      }
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        this.#running,
        new Promise<void>((resolve) => {
          timer = setTimeout(resolve, remaining);
        }),
      ]);
      clearTimeout(timer);
    }
  }

  /**
   * Stops within `timeoutMs`: waits for work this process added (if any), then aborts the batch
   * in flight and refuses new signals. Rows not embedded stay pending in the database.
   */
  async close(timeoutMs: number, log: (message: string) => void): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    if (this.#localWork) {
      try {
        await this.flush(timeoutMs);
      } catch (error) {
        log(error instanceof Error ? error.message : String(error));
      }
    }
    this.#stop.abort();
    const running = this.#running;
    if (!running) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      running,
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, Math.max(0, deadline - Date.now()));
      }),
    ]);
    clearTimeout(timer);
  }
}
