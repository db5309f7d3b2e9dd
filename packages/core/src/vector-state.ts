import { validateEmbedding } from "@memory/api";
import type { FacadeContext } from "./facade-context.js";

/**
 * Why vector recall cannot run now, or undefined when it can: no provider, or stored vectors
 * made by another provider (a model or dimension change) until `reindex`. The one rule, for
 * recall, store, backfill and healthCheck alike.
 */
export async function vectorUnavailable(context: FacadeContext): Promise<string | undefined> {
  const { embedder } = context.options;
  if (!embedder) return "no embedding provider is configured (keyword-only recall)";
  const stored = await context.driver.vectors.fingerprint();
  if (stored !== undefined && stored !== embedder.fingerprint) {
    return `stored vectors were made by ${stored} but the provider is ${embedder.fingerprint}; run reindex`;
  }
  return undefined;
}

/**
 * Document vectors for `texts`, position by position: from the driver's embedding cache when it
 * has one, else from the provider (one call for the misses). Undefined everywhere when vectors
 * cannot be used now; a provider failure is recorded on the worker and never loses the write
 * (the entries stay pending until the worker or backfill embeds them).
 */
export async function embedDocuments(
  context: FacadeContext,
  texts: readonly string[],
  signal?: AbortSignal,
): Promise<(number[] | undefined)[]> {
  const { embedder } = context.options;
  if (!embedder || texts.length === 0 || (await vectorUnavailable(context)))
    return texts.map(() => undefined);
  try {
    return await embedThrough(context, texts, signal);
  } catch (error) {
    if (signal?.aborted) throw error;
    context.worker.lastError = error;
    return texts.map(() => undefined);
  }
}

/** Like {@link embedDocuments} but a provider failure rejects (the embedding jobs count it). */
export async function embedThrough(
  context: FacadeContext,
  texts: readonly string[],
  signal?: AbortSignal,
): Promise<number[][]> {
  const embedder = context.options.embedder!;
  const cache = context.driver.embeddingCache;
  const cached = cache ? await cache.lookup(texts, embedder.fingerprint) : [];
  const missing = texts.flatMap((text, index) => (cached[index] ? [] : [{ text, index }]));
  const vectors: number[][] = texts.map((_, index) =>
    cached[index] ? Array.from(cached[index]) : [],
  );
  if (missing.length > 0) {
    const fresh = await embedder.embed(
      missing.map((item) => item.text),
      { purpose: "document", ...(signal ? { signal } : {}) },
    );
    if (fresh.length !== missing.length) {
      throw new Error(
        `the embedding provider returned ${fresh.length} vectors for ${missing.length} texts`,
      );
    }
    missing.forEach((item, at) => {
      vectors[item.index] = validateEmbedding(fresh[at], embedder.dimensions);
    });
    await cache?.save(
      missing.map((item) => ({ text: item.text, vector: vectors[item.index]! })),
      embedder.fingerprint,
    );
  }
  return vectors;
}
