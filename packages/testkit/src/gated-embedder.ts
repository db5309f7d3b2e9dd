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
  // Tests wait for the n-th call instead of polling: resolved as soon as it is made.
  const waiters: { count: number; resolve: () => void }[] = [];
  const provider: EmbeddingProvider = {
    name: inner.name,
    model: inner.model,
    dimensions: inner.dimensions,
    fingerprint: inner.fingerprint,
    async embed(texts, options) {
      calls.push([...texts]);
      for (const waiter of waiters.filter((waiter) => calls.length >= waiter.count)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
      await gate;
      return inner.embed(texts, options);
    },
    async embedOne(text, options) {
      return (await provider.embed([text], options))[0]!;
    },
  };
  return {
    provider,
    calls,
    release: () => release(),
    /** Resolves once the provider has been called `count` times (at once if it already was). */
    called(count: number): Promise<void> {
      if (calls.length >= count) return Promise.resolve();
      return new Promise<void>((resolve) => waiters.push({ count, resolve }));
    },
  };
}
