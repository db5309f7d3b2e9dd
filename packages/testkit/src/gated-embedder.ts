import type { EmbeddingProvider } from "@memory/api";

/**
 * Wraps a provider so a test sees every call's texts and can hold the calls until it releases
 * them (`blocked`): how deferred-embedding tests observe batching and bounded memory.
 */
export function gatedEmbedder(inner: EmbeddingProvider, blocked = false) {
  let release: () => void = () => {};
  const gate = blocked
    ? new Promise<void>((resolve) => {
        release = resolve;
      })
    : Promise.resolve();
  const calls: string[][] = [];
  const provider: EmbeddingProvider = {
    name: inner.name,
    model: inner.model,
    dimensions: inner.dimensions,
    fingerprint: inner.fingerprint,
    async embed(texts, options) {
      calls.push([...texts]);
      await gate;
      return inner.embed(texts, options);
    },
    async embedOne(text, options) {
      return (await provider.embed([text], options))[0]!;
    },
  };
  return { provider, calls, release: () => release() };
}
