export interface OnnxEmbeddingSettings {
  /** Directory holding the model and its `tokenizer.json` (for example a sentence-transformers export). */
  modelDir: string;
  /** Model file inside `modelDir`; fp32 and int8-quantized graphs both work. Default `model.onnx`. */
  modelFile?: string;
  /** Tokenizer file inside `modelDir`. Default `tokenizer.json`. */
  tokenizerFile?: string;
  /** Model id used in the fingerprint. Default: the directory's name. */
  model?: string;
  /** Vector size the model produces. Default 384 (all-MiniLM-L6-v2, bge-small); checked on first use. */
  dimensions?: number;
  /**
   * Tokens per text including [CLS] and [SEP]; longer texts are truncated. Default: the
   * tokenizer's `truncation.max_length`, else 256 (all-MiniLM-L6-v2 was trained on 256 or
   * fewer, and attention cost grows with the square of the length).
   */
  maxTokens?: number;
  /** Texts per inference run. Default 32. */
  batchSize?: number;
  /** ONNX Runtime intra-op threads. Default: ONNX Runtime's choice (all cores). */
  threads?: number;
}

export const ONNX_DEFAULTS = {
  modelFile: "model.onnx",
  tokenizerFile: "tokenizer.json",
  dimensions: 384,
  maxTokens: 256,
  batchSize: 32,
} as const;
