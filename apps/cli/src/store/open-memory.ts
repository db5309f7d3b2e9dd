import type {
  BackendDoctorHints,
  EmbeddingProvider,
  Memory,
  MemoryConfig,
  StoreDescription,
} from "@memory/api";
import type { ConfiguredProvider, EmbeddingSupport } from "@memory/core";

/**
 * How much of the embedding stack a command needs (`EmbeddingSupport` of `@memory/api`).
 * - `none`: get, list, forget, purge, count, export. The store opens keyword-only; no model or
 *   provider package is loaded, and nothing about the stored vectors changes.
 * - `configured`: the provider from the configuration. Providers load their model or SDK on the
 *   first embed() call, so opening stays cheap; only commands that embed pay for the model.
 */
export type EmbeddingNeed = EmbeddingSupport;

export interface OpenedMemory {
  memory: Memory;
  /** The provider the store was opened with (undefined: keyword-only). */
  provider: EmbeddingProvider | undefined;
  /** Why this provider was chosen (for doctor and notes); undefined when none was asked for. */
  providerReason: string | undefined;
}

// A bare import() here resolves against the CLI's own node_modules, where pnpm put the backends.
const loadModule = (specifier: string): Promise<unknown> => import(specifier);

// @memory/core (and zod through it) is imported on first use, so `memory --version` never pays for it.
const core = () => import("@memory/core");

/** Resolves the configured embedding provider without loading any model. */
export async function resolveProvider(config: MemoryConfig): Promise<ConfiguredProvider> {
  return (await core()).resolveConfiguredProvider(config, { loadModule });
}

/** Opens the configured backend with the embedding support a command needs. */
export async function openMemory(
  config: MemoryConfig,
  need: EmbeddingNeed,
  options: { longRunning?: boolean } = {},
): Promise<OpenedMemory> {
  const opened = await (await core()).openConfiguredMemory(config, {
    embeddings: need,
    loadModule,
    ...options,
  });
  return {
    memory: opened.memory,
    provider: opened.provider,
    providerReason: need === "none" ? undefined : opened.providerReason,
  };
}

/** Which store the configuration opens, as its backend describes it (undefined: not described). */
export async function describeStore(config: MemoryConfig): Promise<StoreDescription | undefined> {
  return (await core()).describeConfiguredStore(config, { loadModule });
}

/** Warnings about `[memory]` keys the configured backend declares it does not honour. */
export async function unhonouredSettingWarnings(config: MemoryConfig): Promise<string[]> {
  return (await core()).configuredUnhonouredSettingWarnings(config, { loadModule });
}

/** The configured backend's `memory doctor` hints (undefined: none declared, or `none`). */
export async function backendDoctorHints(
  config: MemoryConfig,
): Promise<BackendDoctorHints | undefined> {
  if (config.memory.backend === "none") return undefined;
  const module = (await loadModule(`@memory/${config.memory.backend}`).catch(() => undefined)) as
    | { doctorHints?: BackendDoctorHints }
    | undefined;
  return module?.doctorHints;
}
