import type { EmbeddingProvider, Memory, MemoryConfig } from "@memory/api";
import type { ModuleLoader } from "./backend-module.js";
import { openConfiguredMemory } from "./open-configured-memory.js";

export interface CreateMemoryOptions {
  /** Use this provider instead of resolving one from the configuration. */
  embedder?: EmbeddingProvider;
  /**
   * Loads a package by name. The default imports it from this package's location, then from the
   * current working directory, so an app that depends on the backend finds it.
   */
  loadModule?: ModuleLoader;
}

/**
 * Opens the configured backend. The backend package (`@memory/<backend>`) is loaded with a
 * dynamic import, so only the configured one needs to be installed. Unless an `embedder` is
 * given, the provider is resolved from the configuration through `@memory/embeddings`
 * (`noop` needs nothing). `openConfiguredMemory` does the work and also says which provider was
 * chosen and why.
 */
export async function createMemory(
  config: MemoryConfig,
  options: CreateMemoryOptions = {},
): Promise<Memory> {
  return (await openConfiguredMemory(config, options)).memory;
}
