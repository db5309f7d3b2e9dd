import type { ChatModel, EmbeddingProvider, Memory, MemoryConfig } from "@memory/api";
import { type BackendModule, ConfigError, type StoreDescription } from "@memory/api";
import { NoneMemory } from "../none-memory.js";
import { hydrateFromSnapshot, shouldAutoHydrate } from "../snapshot/hydrate.js";
import { configuredSnapshotPath } from "../snapshot/snapshot-path.js";
import { loadBackend, loadPackage, type ModuleLoader } from "./backend-module.js";
import { unhonouredSettingWarnings } from "./unhonoured-settings.js";

/**
 * How much of the embedding stack the caller needs.
 * - `none`: keyword-only. Neither `@memory/embeddings` nor a model is loaded, and the backend
 *   gets no embedder (stored vectors are left as they are).
 * - `configured`: the provider the configuration resolves to. Providers load their model or SDK
 *   on their first `embed()` call, so opening stays cheap.
 */
export type EmbeddingSupport = "none" | "configured";

/** What `resolveConfiguredProvider` found. */
export interface ConfiguredProvider {
  /** The provider to hand to the backend; `undefined` means keyword-only. */
  provider: EmbeddingProvider | undefined;
  /** One line for people (doctor, notes, logs): what was chosen and why. */
  reason: string;
}

/** What `openConfiguredMemory` opened. */
export interface ConfiguredMemory {
  memory: Memory;
  /** The provider the store was opened with; `undefined` means keyword-only. */
  provider: EmbeddingProvider | undefined;
  /** Why this provider (or none) was chosen. */
  providerReason: string;
}

export interface OpenConfiguredMemoryOptions {
  /** Default `configured`. */
  embeddings?: EmbeddingSupport;
  /**
   * Use this provider instead of resolving one from the configuration (with `configured`; a
   * provider with 0 dimensions still means keyword-only).
   */
  embedder?: EmbeddingProvider;
  /** Loads `@memory/<backend>` and `@memory/embeddings`; see `CreateMemoryOptions.loadModule`. */
  loadModule?: ModuleLoader;
  /**
   * With `auto_hydrate` on (the default), a store that is missing or nearly empty is rebuilt
   * from the snapshot (`shouldAutoHydrate`). `false` skips that (`memory hydrate` does its own).
   */
  autoHydrate?: boolean;
  /**
   * Where the one line about an automatic hydration, and the warnings about `[memory]` keys the
   * backend does not honour, go; default stderr. Given, it is also the backend's logger.
   */
  log?: (line: string) => void;
  /** The caller keeps the memory open for long (a server, a worker); see `BackendContext`. */
  longRunning?: boolean;
  /**
   * The chat model of `conflict_confirm = "chat"`. Unset: resolved from `chat_provider` (with
   * `@memory/embeddings`' `resolveChatModel`, nothing called) only when that setting asks for it;
   * `null`: none.
   */
  chatModel?: ChatModel | null;
}

/** The reason given when the configuration turns embeddings off. */
export const EMBEDDINGS_DISABLED_REASON =
  "noop: embeddings disabled by configuration (keyword-only recall)";

/**
 * True when the configuration turns embeddings off: `embedding_provider = "noop"` (or `none`).
 * Such a configuration never loads `@memory/embeddings` and recall is keyword-only.
 */
export function embeddingsDisabled(settings: { embedding_provider?: string | undefined }): boolean {
  const name = settings.embedding_provider?.trim().toLowerCase();
  return name === "noop" || name === "none";
}

/** A provider with 0 dimensions (the `noop` provider) means keyword-only. */
function usable(provider: EmbeddingProvider | undefined): EmbeddingProvider | undefined {
  return provider !== undefined && provider.dimensions > 0 ? provider : undefined;
}

/** The chat model conflict confirmation uses, resolved only when `conflict_confirm = "chat"`. */
async function confirmingChatModel(
  config: MemoryConfig,
  options: OpenConfiguredMemoryOptions,
): Promise<ChatModel | undefined> {
  if (options.chatModel !== undefined) return options.chatModel ?? undefined;
  const settings = config.memory;
  if (settings.conflict_confirm !== "chat" || settings.chat_provider === undefined)
    return undefined;
  const embeddings = (await loadPackage(
    "@memory/embeddings",
    `conflict_confirm = "chat" with chat_provider = "${settings.chat_provider}"`,
    options.loadModule,
  )) as { resolveChatModel?: (config: MemoryConfig["memory"]) => ChatModel | null } | undefined;
  if (typeof embeddings?.resolveChatModel !== "function") {
    throw new ConfigError(
      "@memory/embeddings does not export resolveChatModel(); install a matching version of @memory/embeddings.",
    );
  }
  return embeddings.resolveChatModel(settings) ?? undefined;
}

interface EmbeddingsModule {
  resolveEmbeddingProvider(
    settings: MemoryConfig["memory"],
  ):
    | { provider: EmbeddingProvider; reason?: string }
    | Promise<{ provider: EmbeddingProvider; reason?: string }>;
}

/**
 * Resolves the configured embedding provider without loading any model: nothing for
 * `noop`/`none`, else `resolveEmbeddingProvider` from `@memory/embeddings` (imported only here,
 * so `@memory/api` has no runtime dependency on it). A 0-dimension result means keyword-only.
 * Rejects with a `ConfigError` when `@memory/embeddings` is needed but not installed, or the
 * provider name is unknown.
 */
export async function resolveConfiguredProvider(
  config: MemoryConfig,
  options: { loadModule?: ModuleLoader } = {},
): Promise<ConfiguredProvider> {
  const settings = config.memory;
  if (embeddingsDisabled(settings)) {
    return { provider: undefined, reason: EMBEDDINGS_DISABLED_REASON };
  }
  const embeddings = (await loadPackage(
    "@memory/embeddings",
    `embedding_provider = "${settings.embedding_provider}"`,
    options.loadModule,
  )) as Partial<EmbeddingsModule> | undefined;
  if (typeof embeddings?.resolveEmbeddingProvider !== "function") {
    throw new ConfigError(
      "@memory/embeddings does not export resolveEmbeddingProvider(); install a matching version of @memory/embeddings.",
    );
  }
  const resolved = await embeddings.resolveEmbeddingProvider(settings);
  const provider = usable(resolved.provider);
  return {
    provider,
    reason:
      resolved.reason ?? provider?.fingerprint ?? "no embedding provider (keyword-only recall)",
  };
}

/**
 * Opens the configured memory with the embedding support the caller needs, and says which
 * provider it was opened with and why. The backend package (`@memory/<backend>`) is loaded with
 * a dynamic import, so only the configured one needs to be installed; `backend = "none"` loads
 * nothing. With `embeddings: "configured"` and no `embedder`, the provider comes from
 * `resolveConfiguredProvider` (`noop`/`none` loads nothing, a 0-dimension provider means
 * keyword-only).
 */
export async function openConfiguredMemory(
  config: MemoryConfig,
  options: OpenConfiguredMemoryOptions = {},
): Promise<ConfiguredMemory> {
  if (config.memory.backend === "none") {
    return {
      memory: new NoneMemory(),
      provider: undefined,
      providerReason: 'backend = "none": nothing is stored (no embeddings)',
    };
  }
  let chosen: ConfiguredProvider;
  if ((options.embeddings ?? "configured") === "none") {
    chosen = { provider: undefined, reason: "keyword-only: embeddings not requested" };
  } else if (options.embedder) {
    const provider = usable(options.embedder);
    chosen = {
      provider,
      reason: provider
        ? `${provider.fingerprint} (given by the caller)`
        : `${options.embedder.name} has 0 dimensions (keyword-only recall)`,
    };
  } else {
    chosen = await resolveConfiguredProvider(config, options);
  }
  const { specifier, backend } = await loadBackend(config, options.loadModule);
  if (typeof backend.createMemoryFromConfig !== "function") {
    throw new ConfigError(
      `${specifier} does not export createMemoryFromConfig(); install a matching version of ${specifier}.`,
    );
  }
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  for (const warning of unhonouredSettingWarnings(config, backend.unhonouredSettings)) log(warning);
  const chatModel = await confirmingChatModel(config, options);
  const memory = await (backend as BackendModule).createMemoryFromConfig(config, {
    ...(chosen.provider ? { embedder: chosen.provider } : {}),
    ...(chatModel ? { chatModel } : {}),
    ...(options.longRunning ? { longRunning: true } : {}),
    ...(options.log ? { log: options.log } : {}),
  });
  if (config.memory.auto_hydrate && options.autoHydrate !== false) {
    try {
      await autoHydrate(memory, configuredSnapshotPath(config), log);
    } catch (error) {
      await memory.close().catch(() => {});
      throw error;
    }
  }
  return { memory, provider: chosen.provider, providerReason: chosen.reason };
}

/** Rebuilds a lost store from its snapshot when `shouldAutoHydrate` says so; one log line. */
async function autoHydrate(
  memory: Memory,
  snapshotPath: string,
  log: (line: string) => void = (line) => process.stderr.write(`${line}\n`),
): Promise<void> {
  if (!(await shouldAutoHydrate(memory, snapshotPath))) return;
  const report = await hydrateFromSnapshot(memory, snapshotPath);
  const problems =
    report.problems.length === 0
      ? ""
      : `; ${report.problems.length} unreadable or refused (run \`memory hydrate\` to list them)`;
  log(
    `auto_hydrate: restored ${report.imported} ${report.imported === 1 ? "entry" : "entries"} from ${snapshotPath} (${report.skipped} already stored${problems})`,
  );
}

/**
 * Which store the configuration opens, as its backend describes it (`describeStore` of
 * `@memory/<backend>`), without opening it. `undefined` for `backend = "none"` (no store) and
 * for a backend package that does not describe its stores. Rejects with a `ConfigError` when the
 * backend package is not installed or the configuration is invalid for it.
 */
export async function describeConfiguredStore(
  config: MemoryConfig,
  options: { loadModule?: ModuleLoader } = {},
): Promise<StoreDescription | undefined> {
  if (config.memory.backend === "none") return undefined;
  const { backend } = await loadBackend(config, options.loadModule);
  return typeof backend.describeStore === "function" ? backend.describeStore(config) : undefined;
}
