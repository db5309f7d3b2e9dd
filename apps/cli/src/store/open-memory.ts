import type { EmbeddingProvider, Memory, MemoryConfig } from "@memory/api";

/**
 * How much of the embedding stack a command needs.
 * - `none`: get, list, forget, purge, count, export. The store opens keyword-only; no model or
 *   provider package is loaded, and nothing about the stored vectors changes.
 * - `configured`: the provider from the configuration. Providers load their model or SDK on the
 *   first embed() call, so opening stays cheap; only commands that embed pay for the model.
 */
export type EmbeddingNeed = "none" | "configured";

export interface OpenedMemory {
  memory: Memory;
  /** The provider the store was opened with (undefined: keyword-only). */
  provider: EmbeddingProvider | undefined;
  /** Why this provider was chosen (for doctor and notes), when resolved. */
  providerReason: string | undefined;
}

// A bare import() here resolves against the CLI's own node_modules, where pnpm put the backends.
const loadModule = (specifier: string): Promise<unknown> => import(specifier);

/** Resolves the configured embedding provider without loading any model. */
export async function resolveProvider(
  config: MemoryConfig,
): Promise<{ provider: EmbeddingProvider | undefined; reason: string }> {
  const name = config.memory.embedding_provider;
  if (name === "noop" || name === "none") {
    return {
      provider: undefined,
      reason: "noop: embeddings disabled by configuration (keyword-only recall)",
    };
  }
  const { resolveEmbeddingProvider } = await import("@memory/embeddings");
  const resolved = resolveEmbeddingProvider(config.memory);
  return {
    provider: resolved.provider.dimensions > 0 ? resolved.provider : undefined,
    reason: resolved.reason,
  };
}

/** Opens the configured backend with the embedding support a command needs. */
export async function openMemory(config: MemoryConfig, need: EmbeddingNeed): Promise<OpenedMemory> {
  const { createMemory } = await import("@memory/api");
  if (need === "none") {
    // embedding_provider = noop tells createMemory not to resolve (or import) any provider.
    const keywordOnly: MemoryConfig = {
      ...config,
      memory: { ...config.memory, embedding_provider: "noop" },
    };
    return {
      memory: await createMemory(keywordOnly, { loadModule }),
      provider: undefined,
      providerReason: undefined,
    };
  }
  const { provider, reason } = await resolveProvider(config);
  const effective: MemoryConfig = provider
    ? config
    : { ...config, memory: { ...config.memory, embedding_provider: "noop" } };
  const memory = await createMemory(
    effective,
    provider ? { loadModule, embedder: provider } : { loadModule },
  );
  return { memory, provider, providerReason: reason };
}
