/** Whether a text is a search query or a stored document; some APIs embed them differently. */
export type EmbeddingPurpose = "query" | "document";

export interface EmbedOptions {
  /** Default `document`. */
  purpose?: EmbeddingPurpose;
  signal?: AbortSignal;
}

/**
 * Turns texts into vectors. Providers live in `@memory/embeddings`; backends depend only on
 * this interface.
 */
export interface EmbeddingProvider {
  /** Provider name (`openai`, `gemini`, `voyage`, `onnx`, `local`, `noop`, ...). */
  readonly name: string;
  /** Model id. */
  readonly model: string;
  /** Vector length; 0 means "no embeddings" (keyword-only recall). */
  readonly dimensions: number;
  /**
   * Stable identity of the vector space: `provider:model:dimensions`. Backends record it, so a
   * change of provider, model or dimensions triggers a reindex instead of mixing vector spaces.
   */
  readonly fingerprint: string;
  /**
   * How this model's cosines read as relevance: at or below `floor` a text is unrelated to the
   * query, at `full` it is a strong match. Cosine scales differ between models, so a provider
   * that knows its model says so (measured, see docs/architecture.md); `vector_relevance_floor`
   * and `vector_relevance_full` in memory.toml override it. Optional.
   */
  readonly similarityCalibration?: { floor: number; full: number };
  /** One vector per text, in order. */
  embed(texts: readonly string[], options?: EmbedOptions): Promise<number[][]>;
  /** Convenience for a single text. */
  embedOne(text: string, options?: EmbedOptions): Promise<number[]>;
}

/** Builds the standard fingerprint string. */
export function embeddingFingerprint(name: string, model: string, dimensions: number): string {
  return `${name}:${model}:${dimensions}`;
}
