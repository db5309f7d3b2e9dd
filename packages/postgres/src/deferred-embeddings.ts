import { MemoryTimeoutError } from "@memory/api";

/** One entry waiting for its embedding; `hash` guards against content changed meanwhile. */
export interface EmbeddingJob {
  id: string;
  content: string;
  hash: string;
}

/**
 * Background embedding for `defer_embedding`: `store` commits the row (searchable by keyword at
 * once) and queues it here. Jobs run in batches, one batch at a time. A failed batch is left
 * for `backfillEmbeddings` (the rows count as pending in `healthCheck`), never retried in a loop.
 */
export class DeferredEmbeddings {
  readonly #queue: EmbeddingJob[] = [];
  readonly #process: (jobs: EmbeddingJob[]) => Promise<void>;
  readonly #batchSize: number;
  #running: Promise<void> | undefined;

  constructor(process: (jobs: EmbeddingJob[]) => Promise<void>, batchSize = 32) {
    this.#process = process;
    this.#batchSize = batchSize;
  }

  get pending(): number {
    return this.#queue.length;
  }

  enqueue(job: EmbeddingJob): void {
    this.#queue.push(job);
    this.#running ??= this.#run().finally(() => {
      this.#running = undefined;
    });
  }

  async #run(): Promise<void> {
    // Yield once so a burst of stores ends up in one batch.
    await new Promise((resolve) => setImmediate(resolve));
    while (this.#queue.length > 0) {
      const batch = this.#queue.splice(0, this.#batchSize);
      await this.#process(batch).catch(() => {
        // Left without a vector: counted as pending, embedded by backfillEmbeddings().
      });
    }
  }

  /** Resolves when the queue is empty; rejects with TIMEOUT after `timeoutMs`. */
  async drain(timeoutMs: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () =>
          reject(
            new MemoryTimeoutError(
              `Deferred embeddings did not finish within ${timeoutMs} ms (${this.#queue.length} queued); pass a larger timeoutMs to flush(), or run backfillEmbeddings() later.`,
            ),
          ),
        timeoutMs,
      );
      timer.unref?.();
    });
    try {
      while (this.#running) await Promise.race([this.#running, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }
}
