import { EmbeddingError } from "@memory/api";
import { chunk } from "../http/batching.js";
import { SentencePieceTokenizer } from "./sentence-piece-tokenizer.js";
import { type TfRuntime, tfjsRuntime } from "./tfjs-runtime.js";
import {
  LOCAL_DEFAULTS,
  type LocalEmbeddingSettings,
  USE_LITE_DIMENSIONS,
} from "./use-lite-settings.js";
import { loadUseModel, useModelDir } from "./use-model-files.js";

type GraphModel = Awaited<ReturnType<typeof loadUseModel>>["model"];
interface Loaded {
  runtime: TfRuntime;
  model: GraphModel;
  tokenizer: SentencePieceTokenizer;
}

/** One model run's row: a window of token ids belonging to text `owner`. */
interface Window {
  owner: number;
  ids: number[];
}

/**
 * Universal Sentence Encoder lite (512 dimensions) on tfjs + WebAssembly, run on the current
 * thread. `LocalEmbeddingProvider` runs this inside its worker thread; nothing else should use it
 * on a thread that serves requests, because every model run blocks that thread's event loop.
 *
 * The model takes one sparse [row, position] -> token tensor per batch, which has traps this
 * class guards against:
 * - the batch size is inferred from the largest row index, so an empty text at the end silently
 *   drops a row and shifts nothing else; an empty text in the middle yields a garbage vector.
 *   Texts without tokens are therefore never sent and get a zero vector.
 * - it was trained on sentences; long texts are split into `windowTokens` windows and the
 *   window vectors averaged (weighted by length) and re-normalized, instead of one huge row.
 * - its SentencePiece vocabulary is case-sensitive ("Paris" and "paris" are different pieces),
 *   so text is passed as is, never lowercased.
 */
export class UseLiteEngine {
  private loading: Promise<Loaded> | undefined;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly settings: LocalEmbeddingSettings = {}) {}

  /** Loads the model (memoised; a failed load is retried by the next call). */
  async init(): Promise<void> {
    await this.load();
  }

  /** Embeds already validated strings; `signal` is checked before every model run. */
  async embed(texts: readonly string[], signal?: AbortSignal): Promise<number[][]> {
    signal?.throwIfAborted();
    if (texts.length === 0) return [];
    const loaded = await this.load();
    // One model run at a time: runs share the wasm heap, and interleaving them only adds memory.
    const result = this.queue.then(() => this.embedLoaded(loaded, texts, signal));
    this.queue = result.catch(() => undefined);
    return result;
  }

  /** Frees the model's tensors once queued runs are done; the tfjs backend stays. */
  async dispose(): Promise<void> {
    const loaded = await this.loading?.catch(() => undefined);
    this.loading = undefined;
    await this.queue;
    loaded?.model.dispose();
  }

  private load(): Promise<Loaded> {
    this.loading ??= this.open();
    this.loading.catch(() => {
      this.loading = undefined;
    });
    return this.loading;
  }

  private async open(): Promise<Loaded> {
    const dir = useModelDir(this.settings.modelDir);
    const runtime = await tfjsRuntime();
    const { model, vocabulary } = await loadUseModel(runtime, dir);
    return { runtime, model, tokenizer: new SentencePieceTokenizer(vocabulary) };
  }

  private async embedLoaded(
    loaded: Loaded,
    texts: readonly string[],
    signal: AbortSignal | undefined,
  ): Promise<number[][]> {
    const windowTokens = this.settings.windowTokens ?? LOCAL_DEFAULTS.windowTokens;
    const windows: Window[] = [];
    texts.forEach((text, owner) => {
      const tokens = text.trim() === "" ? [] : loaded.tokenizer.encode(text);
      for (const ids of chunk(tokens, windowTokens)) windows.push({ owner, ids });
    });
    const sums = texts.map(() => new Float64Array(USE_LITE_DIMENSIONS));
    for (const batch of chunk(windows, this.settings.batchSize ?? LOCAL_DEFAULTS.batchSize)) {
      // Model runs settle through microtasks only; a macrotask turn lets an abort (in the worker,
      // a "cancel" message) arrive between runs.
      if (signal !== undefined) await new Promise((resolve) => setImmediate(resolve));
      signal?.throwIfAborted();
      const rows = await this.run(loaded.runtime, loaded.model, batch);
      batch.forEach((window, index) => {
        const sum = sums[window.owner] as Float64Array;
        const row = rows[index] as number[];
        // Weighted by length, so a short trailing window does not count as much as a full one.
        for (let dim = 0; dim < USE_LITE_DIMENSIONS; dim++) {
          sum[dim] = (sum[dim] as number) + (row[dim] as number) * window.ids.length;
        }
      });
    }
    return sums.map((sum) => {
      const norm = Math.sqrt(sum.reduce((total, value) => total + value * value, 0));
      return Array.from(sum, (value) => (norm === 0 ? 0 : value / norm));
    });
  }

  private async run(runtime: TfRuntime, model: GraphModel, batch: Window[]): Promise<number[][]> {
    const { tf } = runtime;
    const positions: number[][] = [];
    const values: number[] = [];
    batch.forEach((window, row) => {
      window.ids.forEach((id, position) => {
        positions.push([row, position]);
        values.push(id);
      });
    });
    const indices = tf.tensor2d(positions, [positions.length, 2], "int32");
    const tokens = tf.tensor1d(values, "int32");
    let output: import("@tensorflow/tfjs-core").Tensor | undefined;
    try {
      output = (await model.executeAsync({ indices, values: tokens })) as typeof output;
      const rows = (await output?.array()) as number[][] | undefined;
      // The row-dropping trap above, checked rather than assumed away.
      if (!Array.isArray(rows) || rows.length !== batch.length) {
        throw new EmbeddingError(
          `The local model returned ${rows?.length ?? 0} vectors for ${batch.length} inputs.`,
        );
      }
      return rows;
    } finally {
      indices.dispose();
      tokens.dispose();
      output?.dispose();
    }
  }
}
