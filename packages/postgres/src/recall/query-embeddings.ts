import { EmbeddingError, type EmbeddingProvider } from "@memory/api";

/**
 * Query embeddings, cached (LRU of `maxEntries`, keyed by the provider's fingerprint and the
 * text): an agent asks the same things again, and a provider call costs far more than a
 * recall query. Recall results themselves are not cached (see `changeToken`).
 */
export class QueryEmbeddings {
  readonly #embedder: EmbeddingProvider;
  readonly #maxEntries: number;
  readonly #cache = new Map<string, Float32Array>();

  constructor(embedder: EmbeddingProvider, maxEntries: number) {
    this.#embedder = embedder;
    this.#maxEntries = maxEntries;
  }

  /** The query's vector. Provider failures propagate (the engine degrades to keywords). */
  async embed(
    query: string,
    dimensions: number | undefined,
    signal?: AbortSignal,
  ): Promise<Float32Array> {
    const embedder = this.#embedder;
    const key = `${embedder.fingerprint}\u0000${query}`;
    const cached = this.#cache.get(key);
    if (cached) {
      this.#cache.delete(key);
      this.#cache.set(key, cached);
      return cached;
    }
    const values = await embedder.embedOne(
      query,
      signal ? { purpose: "query", signal } : { purpose: "query" },
    );
    const expected = dimensions ?? embedder.dimensions;
    if (!Array.isArray(values) || values.length !== expected) {
      throw new EmbeddingError(
        `the embedding provider ${embedder.fingerprint} returned a query vector of ${Array.isArray(values) ? values.length : "no"} dimensions; the store uses ${expected}.`,
      );
    }
    const vector = Float32Array.from(values);
    // A non-finite vector is a provider failure the engine reports; it is not kept.
    if (this.#maxEntries > 0 && vector.every(Number.isFinite)) {
      this.#cache.set(key, vector);
      if (this.#cache.size > this.#maxEntries)
        this.#cache.delete(this.#cache.keys().next().value as string);
    }
    return vector;
  }

  clear(): void {
    this.#cache.clear();
  }
}
