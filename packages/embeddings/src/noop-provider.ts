import { type EmbeddingProvider, embeddingFingerprint } from "@memory/api";

/**
 * The provider for "no embeddings": 0 dimensions tells backends to skip vector search and rely
 * on keyword recall. It returns one empty vector per text so callers that zip texts with
 * vectors keep working.
 */
export class NoopEmbeddingProvider implements EmbeddingProvider {
  readonly name = "noop";
  readonly model = "none";
  readonly dimensions = 0;
  readonly fingerprint = embeddingFingerprint("noop", "none", 0);

  async embed(texts: readonly string[]): Promise<number[][]> {
    return texts.map(() => []);
  }

  async embedOne(_text: string): Promise<number[]> {
    return [];
  }
}

export function createNoopEmbeddings(): NoopEmbeddingProvider {
  return new NoopEmbeddingProvider();
}
