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
