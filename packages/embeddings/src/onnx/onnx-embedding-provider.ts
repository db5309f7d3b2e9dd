import { readFile, stat } from "node:fs/promises";
import path from "node:path";
import {
  ConfigError,
  EmbeddingError,
  type EmbeddingProvider,
  type EmbedOptions,
  embeddingFingerprint,
  InvalidInputError,
  MemoryClosedError,
} from "@memory/api";
import { chunk } from "../http/batching.js";
import { importOptional } from "../http/optional-import.js";
import { meanPoolAndNormalize, normalizeRows } from "./mean-pooling.js";
import { ONNX_DEFAULTS, type OnnxEmbeddingSettings } from "./onnx-options.js";
import { WordPieceTokenizer } from "./wordpiece-tokenizer.js";

type Ort = typeof import("onnxruntime-node");
type Session = Awaited<ReturnType<Ort["InferenceSession"]["create"]>>;

interface Loaded {
  ort: Ort;
  session: Session;
  tokenizer: WordPieceTokenizer;
  maxTokens: number;
  /** Declared inputs and their integer type, so we feed exactly what the graph expects. */
  inputs: Map<string, "int64" | "int32">;
  output: string;
}

const KNOWN_INPUTS = new Set(["input_ids", "attention_mask", "token_type_ids"]);
// Preferred outputs, in order: token vectors to pool, else an already pooled sentence vector.
const OUTPUT_PREFERENCE = ["last_hidden_state", "token_embeddings", "sentence_embedding"];

/**
 * On-device embeddings with onnxruntime-node: WordPiece tokenization, masked mean pooling and
 * L2 normalization, as sentence-transformers does. The model loads on first use behind one
 * memoised promise, so construction does no I/O.
 */
export class OnnxEmbeddingProvider implements EmbeddingProvider {
  readonly name = "onnx";
  readonly model: string;
  readonly dimensions: number;
  readonly fingerprint: string;
  private readonly settings: OnnxEmbeddingSettings;
  private loading: Promise<Loaded> | undefined;
  private closed = false;

  constructor(settings: OnnxEmbeddingSettings) {
    if (typeof settings?.modelDir !== "string" || settings.modelDir === "") {
      throw new ConfigError(
        "The onnx provider needs modelDir: a directory with model.onnx and tokenizer.json (embedding_model in memory.toml).",
      );
    }
    this.settings = settings;
    this.model = settings.model ?? path.basename(path.resolve(settings.modelDir));
    this.dimensions = settings.dimensions ?? ONNX_DEFAULTS.dimensions;
    this.fingerprint = embeddingFingerprint(this.name, this.model, this.dimensions);
  }

  /** Loads the model now instead of at the first `embed()` (for warm-up and `memory doctor`). */
  async init(): Promise<void> {
    await this.load();
  }

  async embed(texts: readonly string[], options: EmbedOptions = {}): Promise<number[][]> {
    if (this.closed) throw new MemoryClosedError("onnx embedding provider");
    options.signal?.throwIfAborted();
    for (const [index, text] of texts.entries()) {
      if (typeof text !== "string") {
        throw new InvalidInputError(`embed() expects strings; item ${index} is ${typeof text}.`);
      }
    }
    if (texts.length === 0) return [];
    const loaded = await this.load();
    // Every row of a batch is padded to its longest text, so batching texts of similar length
    // (by characters, a cheap proxy for tokens) avoids paying attention over padding.
    const order = texts
      .map((_, index) => index)
      .sort((a, b) => texts[a]!.length - texts[b]!.length);
    const vectors = new Array<number[]>(texts.length);
    for (const batch of chunk(order, this.settings.batchSize ?? ONNX_DEFAULTS.batchSize)) {
      // Inference cannot be interrupted midway, but we stop between batches.
      options.signal?.throwIfAborted();
      const rows = await this.run(
        loaded,
        batch.map((index) => texts[index] as string),
      );
      batch.forEach((index, row) => {
        vectors[index] = rows[row] as number[];
      });
    }
    return vectors;
  }

  async embedOne(text: string, options?: EmbedOptions): Promise<number[]> {
    const [vector] = await this.embed([text], options);
    return vector as number[];
  }

  /** Releases the native session. Idempotent; later calls to `embed()` fail. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const loading = this.loading;
    this.loading = undefined;
    const loaded = await loading?.catch(() => undefined);
    await loaded?.session.release();
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  private load(): Promise<Loaded> {
    this.loading ??= this.open();
    // A failed load (missing file, missing package) may be fixed and retried.
    this.loading.catch(() => {
      this.loading = undefined;
    });
    return this.loading;
  }

  private async open(): Promise<Loaded> {
    const dir = path.resolve(this.settings.modelDir);
    const modelPath = path.join(dir, this.settings.modelFile ?? ONNX_DEFAULTS.modelFile);
    const tokenizerPath = path.join(
      dir,
      this.settings.tokenizerFile ?? ONNX_DEFAULTS.tokenizerFile,
    );
    await Promise.all([
      mustExist(modelPath, "modelFile"),
      mustExist(tokenizerPath, "tokenizerFile"),
    ]);
    let tokenizerJson: unknown;
    try {
      tokenizerJson = JSON.parse(await readFile(tokenizerPath, "utf8"));
    } catch (error) {
      throw new ConfigError(`${tokenizerPath} is not valid JSON: re-export the tokenizer.`, {
        cause: error,
      });
    }
    const tokenizer = new WordPieceTokenizer(tokenizerJson as never, tokenizerPath);
    const ort = await importOptional(
      "onnxruntime-node",
      "The onnx embedding provider",
      () => import("onnxruntime-node"),
    );
    let session: Session;
    try {
      session = await ort.InferenceSession.create(modelPath, {
        executionProviders: ["cpu"],
        ...(this.settings.threads === undefined
          ? {}
          : { intraOpNumThreads: this.settings.threads }),
      });
    } catch (error) {
      throw new ConfigError(`ONNX Runtime could not load ${modelPath}: ${String(error)}`, {
        cause: error,
      });
    }
    const inputs = new Map<string, "int64" | "int32">();
    for (const meta of session.inputMetadata) {
      if (!KNOWN_INPUTS.has(meta.name)) {
        throw new ConfigError(
          `${modelPath} declares the input "${meta.name}"; the onnx provider can feed only input_ids, attention_mask and token_type_ids (BERT-style encoders).`,
        );
      }
      inputs.set(meta.name, meta.isTensor && meta.type === "int32" ? "int32" : "int64");
    }
    if (!inputs.has("input_ids")) {
      throw new ConfigError(`${modelPath} has no input_ids input; is it a text encoder?`);
    }
    const output =
      OUTPUT_PREFERENCE.find((name) => session.outputNames.includes(name)) ??
      session.outputNames[0];
    if (output === undefined) throw new ConfigError(`${modelPath} declares no outputs.`);
    const maxTokens = this.settings.maxTokens ?? tokenizer.maxLength ?? ONNX_DEFAULTS.maxTokens;
    return { ort, session, tokenizer, maxTokens, inputs, output };
  }

  private async run(loaded: Loaded, texts: readonly string[]): Promise<number[][]> {
    const { ort, session, tokenizer, maxTokens, inputs, output } = loaded;
    const encoded = texts.map((text) => tokenizer.encode(text, maxTokens).ids);
    const sequenceLength = Math.max(...encoded.map((ids) => ids.length));
    const mask = encoded.map((ids) =>
      Array.from({ length: sequenceLength }, (_, index) => (index < ids.length ? 1 : 0)),
    );
    const shape = [texts.length, sequenceLength];
    const columns: Record<string, (row: number, position: number) => number> = {
      input_ids: (row, position) => encoded[row]?.[position] ?? 0,
      attention_mask: (row, position) => mask[row]?.[position] ?? 0,
      // Single-segment input: every token belongs to sentence A.
      token_type_ids: () => 0,
    };
    const feeds: Record<string, InstanceType<Ort["Tensor"]>> = {};
    for (const [name, type] of inputs) {
      const value = columns[name] as (row: number, position: number) => number;
      const size = texts.length * sequenceLength;
      const data = type === "int32" ? new Int32Array(size) : new BigInt64Array(size);
      for (let row = 0; row < texts.length; row++) {
        for (let position = 0; position < sequenceLength; position++) {
          const number = value(row, position);
          const index = row * sequenceLength + position;
          if (data instanceof Int32Array) data[index] = number;
          else data[index] = BigInt(number);
        }
      }
      feeds[name] = new ort.Tensor(type, data, shape);
    }
    let result: Awaited<ReturnType<Session["run"]>>;
    try {
      result = await session.run(feeds);
    } catch (error) {
      throw new EmbeddingError(`ONNX inference failed for model ${this.model}: ${String(error)}`, {
        cause: error,
      });
    }
    const tensor = result[output];
    if (tensor === undefined || !(tensor.data instanceof Float32Array)) {
      throw new EmbeddingError(`Model ${this.model} did not return float32 output "${output}".`);
    }
    const dims = tensor.dims;
    const hiddenSize = dims[dims.length - 1] ?? 0;
    if (hiddenSize !== this.dimensions) {
      throw new EmbeddingError(
        `Model ${this.model} produces ${hiddenSize}-dimensional vectors, but dimensions is ${this.dimensions}: set the dimensions option (embedding_dims in memory.toml) to ${hiddenSize}.`,
        { details: { expected: this.dimensions, actual: hiddenSize } },
      );
    }
    const vectors =
      dims.length === 3
        ? meanPoolAndNormalize(tensor.data, mask, sequenceLength, hiddenSize)
        : normalizeRows(tensor.data, texts.length, hiddenSize);
    for (const value of Object.values(result)) value.dispose?.();
    return vectors;
  }
}

async function mustExist(file: string, option: string): Promise<void> {
  try {
    await stat(file);
  } catch (error) {
    throw new ConfigError(
      `The onnx provider needs ${file}, which does not exist: check the modelDir and ${option} options (embedding_model in memory.toml).`,
      { cause: error, details: { file } },
    );
  }
}

export function createOnnxEmbeddings(settings: OnnxEmbeddingSettings): OnnxEmbeddingProvider {
  return new OnnxEmbeddingProvider(settings);
}
