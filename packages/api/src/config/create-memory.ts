import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { ConfigError } from "../errors.js";
import { NoneMemory } from "../none-memory.js";
import type { EmbeddingProvider } from "../types/embedding-provider.js";
import type { Memory } from "../types/memory.js";
import type { MemoryConfig } from "./config-schema.js";

/** What `createMemory` hands to a backend package's factory. */
export interface BackendContext {
  /** The resolved embedding provider; `undefined` means keyword-only. */
  embedder?: EmbeddingProvider;
}

/** The shape every backend package exports so `createMemory` can load it by name. */
export interface BackendModule {
  createMemoryFromConfig(config: MemoryConfig, context: BackendContext): Memory | Promise<Memory>;
}

export interface CreateMemoryOptions {
  /** Use this provider instead of resolving one from the configuration. */
  embedder?: EmbeddingProvider;
  /**
   * Loads a package by name. The default imports it from this package's location, then from the
   * current working directory, so an app that depends on the backend finds it.
   */
  loadModule?: (specifier: string) => Promise<unknown>;
}

async function defaultLoadModule(specifier: string): Promise<unknown> {
  try {
    return await import(specifier);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ERR_MODULE_NOT_FOUND") throw error;
    // With strict installs (pnpm), @memory/api cannot see its siblings; the app can.
    const resolved = createRequire(join(process.cwd(), "package.json")).resolve(specifier);
    return import(pathToFileURL(resolved).href);
  }
}

async function load(
  specifier: string,
  purpose: string,
  options: CreateMemoryOptions,
): Promise<unknown> {
  try {
    return await (options.loadModule ?? defaultLoadModule)(specifier);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const missing = (error as Error).message ?? "";
    // Only blame the package itself; a missing dependency *of* the package is reported as is.
    if (
      (code === "ERR_MODULE_NOT_FOUND" || code === "MODULE_NOT_FOUND") &&
      missing.includes(`'${specifier}'`)
    ) {
      throw new ConfigError(
        `${purpose} needs the package ${specifier}, which is not installed: run \`pnpm add ${specifier}\` (or npm install ${specifier}).`,
        {
          cause: error,
        },
      );
    }
    throw error;
  }
}

/**
 * Opens the configured backend. The backend package (`@memory/<backend>`) is loaded with a
 * dynamic import, so only the configured one needs to be installed. Unless an `embedder` is
 * given, the provider is resolved from the configuration through `@memory/embeddings`
 * (`noop` needs nothing).
 */
export async function createMemory(
  config: MemoryConfig,
  options: CreateMemoryOptions = {},
): Promise<Memory> {
  const settings = config.memory;
  if (settings.backend === "none") return new NoneMemory();
  let embedder = options.embedder;
  const provider = settings.embedding_provider;
  if (!embedder && provider !== "noop" && provider !== "none") {
    const embeddings = (await load(
      "@memory/embeddings",
      `embedding_provider = "${provider}"`,
      options,
    )) as {
      resolveEmbeddingProvider(
        settings: MemoryConfig["memory"],
      ): Promise<{ provider: EmbeddingProvider }> | { provider: EmbeddingProvider };
    };
    ({ provider: embedder } = await embeddings.resolveEmbeddingProvider(settings));
    if (embedder.dimensions === 0) embedder = undefined;
  }
  const specifier = `@memory/${settings.backend}`;
  const backend = (await load(
    specifier,
    `backend = "${settings.backend}"`,
    options,
  )) as Partial<BackendModule>;
  if (typeof backend.createMemoryFromConfig !== "function") {
    throw new ConfigError(
      `${specifier} does not export createMemoryFromConfig(); install a matching version of ${specifier}.`,
    );
  }
  return backend.createMemoryFromConfig(config, embedder ? { embedder } : {});
}
