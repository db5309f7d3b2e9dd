import {
  EmbeddingError,
  type EmbeddingProvider,
  type EmbeddingPurpose,
  validateEmbedding,
} from "@memory/api";
import type { FacadeContext } from "./facade-context.js";

/**
 * Why vector recall cannot run now, or undefined when it can: no provider, or stored vectors
 * made by another provider (a model or dimension change) until `reindex`, or a driver that
 * stores none, or the driver's own reason (its store cannot take this provider's vectors). The
 * one rule, for recall, store, import, the embedding jobs and healthCheck alike: drivers only
 * report what they store.
 */
export async function vectorUnavailable(context: FacadeContext): Promise<string | undefined> {
  const { embedder } = context.options;
  if (!embedder)
    return "no embedding provider is configured: recall is keyword-only (set embedding_provider to enable vector recall)";
  const { driver } = context;
  // A driver that stores no vectors (Markdown without its index) is never sent any.
  if (!driver.capabilities.vectorSearch) {
    const { reason } = await driver.recallStages.vectorAvailability();
    return reason ?? `the ${driver.name} backend stores no vectors: recall is keyword-only`;
  }
  const stored = await driver.vectors.fingerprint();
  if (stored !== undefined && stored !== embedder.fingerprint) {
    return `stored vectors were made by ${stored} but the provider is ${embedder.fingerprint}: recall is keyword-only until reindex() (memory reindex) re-embeds every entry`;
  }
  const own = await driver.recallStages.vectorAvailability();
  return own.usable
    ? undefined
    : (own.reason ?? `the ${driver.name} store cannot search vectors now`);
}

/**
 * Whether a write may carry vectors: always without a provider (the driver keeps one vector
 * size per store); with one, only in its vector space, so a store whose vectors another
 * provider made takes none, given or computed, until `reindex`.
 */
export async function vectorsWritable(context: FacadeContext): Promise<boolean> {
  return !context.options.embedder || (await vectorUnavailable(context)) === undefined;
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
    const fresh = await embedChecked(
      embedder,
      missing.map((item) => item.text),
      "document",
      signal,
    );
    missing.forEach((item, at) => {
      vectors[item.index] = fresh[at]!;
    });
    await cache?.save(
      missing.map((item) => ({ text: item.text, vector: vectors[item.index]! })),
      embedder.fingerprint,
    );
  }
  return vectors;
}

/**
 * A vector the caller gave with its entry, checked against the provider's size. Without a
 * provider it goes to the driver as it is: the driver keeps one vector size per store.
 */
export function givenVector(
  context: FacadeContext,
  embedding: number[] | undefined,
): number[] | undefined {
  if (!embedding) return undefined;
  const { embedder } = context.options;
  if (embedder) validateEmbedding(embedding, embedder.dimensions);
  return embedding;
}

/**
 * One provider call, checked: a failure or a malformed answer (wrong count or size, NaN or
 * Infinity) is an `EmbeddingError`, so nothing unusable is ever stored or searched with. Drivers
 * that embed queries themselves (`RecallStages.embedQuery`) call it too.
 */
export async function embedChecked(
  embedder: EmbeddingProvider,
  texts: string[],
  purpose: EmbeddingPurpose,
  signal?: AbortSignal,
): Promise<number[][]> {
  let fresh: number[][];
  try {
    fresh = await embedder.embed(texts, { purpose, ...(signal ? { signal } : {}) });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new EmbeddingError(
      `The embedding provider ${embedder.fingerprint} failed: ${error instanceof Error ? error.message : String(error)}. The entry is kept and will be embedded by backfillEmbeddings().`,
      { cause: error },
    );
  }
  if (
    fresh.length !== texts.length ||
    fresh.some((vector) => vector.length !== embedder.dimensions)
  ) {
    throw new EmbeddingError(
      `The embedding provider ${embedder.fingerprint} returned vectors of the wrong count or size (expected ${texts.length} x ${embedder.dimensions}).`,
    );
  }
  if (fresh.some((vector) => !vector.every(Number.isFinite))) {
    throw new EmbeddingError(
      `The embedding provider ${embedder.fingerprint} returned NaN or Infinity; nothing was stored from it (the entry keeps working for keyword recall and is embedded by backfillEmbeddings() once the provider is fixed).`,
    );
  }
  return fresh;
}
