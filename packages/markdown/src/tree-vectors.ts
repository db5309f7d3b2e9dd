import type { DriverEmbeddingCache, DriverVectors } from "@memory/api";
import type { TreeState } from "./tree-state.js";

/**
 * The index's vectors, read after the index caught up with the files; none while the tree has
 * no index (off, or a tree that does not exist yet). `reset` only drops vectors: rebuilding the
 * index from the files is the driver's `rebuildIndex`.
 */
export function indexVectors(state: TreeState, fresh: () => Promise<unknown>): DriverVectors {
  const inner = () => state.index?.driver.vectors;
  return {
    pending: async (after, limit) => {
      await fresh();
      return (await inner()?.pending(after, limit)) ?? { entries: [], next: undefined };
    },
    countPending: async () => {
      await fresh();
      return (await inner()?.countPending()) ?? 0;
    },
    save: async (vectors, fingerprint) => (await inner()?.save(vectors, fingerprint)) ?? 0,
    fingerprint: async () => inner()?.fingerprint(),
    reset: async (fingerprint) => {
      await inner()?.reset(fingerprint);
    },
  };
}

/** The index's embedding cache, the index opened first (a store may be the tree's first write). */
export function lazyEmbeddingCache(
  state: TreeState,
  ready: (create: boolean) => Promise<unknown>,
): DriverEmbeddingCache {
  const cache = async () => {
    await ready(false);
    return state.index?.driver.embeddingCache;
  };
  return {
    lookup: async (texts, fingerprint) =>
      (await (await cache())?.lookup(texts, fingerprint)) ?? texts.map(() => undefined),
    save: async (items, fingerprint) => {
      await (await cache())?.save(items, fingerprint);
    },
  };
}
