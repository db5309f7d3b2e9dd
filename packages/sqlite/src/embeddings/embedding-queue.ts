import { MemoryTimeoutError } from "@memory/api";

/** One deferred embedding: the entry and the content hash the vector must match when written. */
export interface EmbeddingJob {
  docId: number;
  namespace: string;
  hash: string;
  content: string;
}

/**
 * Background embedding for `defer_embedding`. Jobs run in batches, one batch at a time; a
 * failed batch leaves its entries without vectors (visible as pending, fixed by backfill).
 */
export class EmbeddingQueue {
  readonly #jobs: EmbeddingJob[] = [];
  readonly #batchSize: number;
  readonly #process: (jobs: EmbeddingJob[]) => Promise<void>;
  #running: Promise<void> | undefined;
  #stopped = false;
  lastError: unknown;

  constructor(batchSize: number, process: (jobs: EmbeddingJob[]) => Promise<void>) {
    this.#batchSize = batchSize;
    this.#process = process;
  }

  get pending(): number {
    return this.#jobs.length + (this.#running ? 1 : 0);
  }

  enqueue(job: EmbeddingJob): void {
    if (this.#stopped) return;
    this.#jobs.push(job);
    // Started on a later tick so a burst of stores shares one provider call.
    this.#running ??= new Promise<void>((resolve) => setImmediate(resolve)).then(() =>
      this.#drain(),
    );
  }

  async #drain(): Promise<void> {
    try {
      while (this.#jobs.length > 0 && !this.#stopped) {
        const batch = this.#jobs.splice(0, this.#batchSize);
        try {
          await this.#process(batch);
        } catch (error) {
          this.lastError = error;
        }
        // Give waiting I/O (HTTP requests of a server using this store) a turn between batches,
        // even when the provider resolved without ever leaving the microtask queue.
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
    } finally {
      this.#running = undefined;
    }
  }

  /** Resolves when every queued job ran; rejects with a TIMEOUT error after `timeoutMs`. */
  async flush(timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (this.#running) {
      const remaining = deadline - Date.now();
      if (remaining <= 0) {
        throw new MemoryTimeoutError(
          `Deferred embeddings did not finish within ${timeoutMs} ms (${this.#jobs.length} queued); the entries are stored and backfillEmbeddings() will embed them. Pass a larger timeoutMs to flush().`,
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

  /** Drops queued jobs (they stay pending in the database) and refuses new ones. */
  stop(): void {
    this.#stopped = true;
    this.#jobs.length = 0;
  }
}
