import { EmbeddingError, type EmbeddingProvider } from "@memory/api";
import { embedChecked } from "@memory/core";

/** Query embeddings kept, least recently used dropped first. */
const QUERIES_KEPT = 256;

/**
 * Query embeddings from a small in-memory LRU, else the provider (`RecallStages.embedQuery`).
 * In memory, not in the SQL embedding cache: a recall must not write to the database (no write
 * lock on the read path). A failure or a malformed answer rejects (`embedChecked`); the engine
 * then answers from keywords.
 */
export class QueryVectors {
  readonly #provider: EmbeddingProvider | undefined;
  readonly #queries = new Map<string, Float32Array>();

  constructor(provider: EmbeddingProvider | undefined) {
    this.#provider = provider;
  }

  async embed(query: string, signal?: AbortSignal): Promise<Float32Array> {
    const hit = this.#queries.get(query);
    if (hit) {
      this.#queries.delete(query);
      this.#queries.set(query, hit);
      return hit;
    }
    const provider = this.#provider;
    if (!provider) throw new EmbeddingError("No embedding provider is configured.");
    const [vector] = await embedChecked(provider, [query], "query", signal);
    const embedded = Float32Array.from(vector!);
    this.#queries.set(query, embedded);
    if (this.#queries.size > QUERIES_KEPT)
      this.#queries.delete(this.#queries.keys().next().value as string);
    return embedded;
  }
}
