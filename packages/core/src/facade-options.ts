import type { ChatModel, EmbeddingProvider, RetrievalSettings } from "@memory/api";
import type { EmbeddingWorkerOptions } from "./embedding-worker.js";
import { RETRIEVAL_SETTING_NAMES, resolveRetrievalSettings } from "./recall/retrieval-settings.js";

/** Options of {@link createMemoryFacade}: what every backend accepts besides its own storage options. */
export interface MemoryFacadeOptions {
  /** Embedding provider; without one (or with a 0-dimension one) recall is keyword-only. */
  embedder?: EmbeddingProvider;
  /** `[memory]` settings in camelCase over the defaults of memory.toml. */
  settings?: Partial<RetrievalSettings>;
  /**
   * The chat model that confirms conflict decisions close to the line when `conflictConfirm` is
   * `chat` (the configured `chat_provider`); without one the rules decide alone.
   */
  chatModel?: ChatModel | null | undefined;
  /** `defer_embedding`: store returns before the embedding is computed (if the driver can). Default false. */
  deferEmbedding?: boolean;
  /** Texts per provider call for deferred work, backfill and reindex. Default 64. */
  embeddingBatchSize?: number;
  /** How long `close()` waits for deferred embeddings before giving up. Default 10 000 ms. */
  closeTimeoutMs?: number;
  /** When the driver cannot be opened, behave as the `none` backend (logged loudly) instead of failing. */
  fallbackToNone?: boolean;
  /** Where warnings go. Default `console.warn`. */
  logger?: (message: string) => void;
  /** Clock for time decay and lease expiry (tests). Default `Date.now`. */
  now?: () => number;
  /** When the deferred-embedding worker wakes up by itself, and its sleep (tests inject it). */
  embeddingWorker?: EmbeddingWorkerOptions;
}

export interface ResolvedFacadeOptions {
  embedder: EmbeddingProvider | undefined;
  chatModel: ChatModel | undefined;
  settings: RetrievalSettings;
  deferEmbedding: boolean;
  embeddingBatchSize: number;
  closeTimeoutMs: number;
  fallbackToNone: boolean;
  logger: (message: string) => void;
  now: () => number;
  embeddingWorker: EmbeddingWorkerOptions;
}

export const FACADE_DEFAULTS = {
  deferEmbedding: false,
  embeddingBatchSize: 64,
  closeTimeoutMs: 10_000,
  fallbackToNone: false,
} as const;

/** Applies the defaults; settings are validated here, once, with the error naming the key. */
export function resolveFacadeOptions(options: MemoryFacadeOptions): ResolvedFacadeOptions {
  return {
    // A provider without dimensions (noop) means keyword-only, the same as none.
    embedder: options.embedder && options.embedder.dimensions > 0 ? options.embedder : undefined,
    chatModel: options.chatModel ?? undefined,
    settings: resolveRetrievalSettings(options.settings ?? {}),
    deferEmbedding: options.deferEmbedding ?? FACADE_DEFAULTS.deferEmbedding,
    embeddingBatchSize: Math.max(
      1,
      options.embeddingBatchSize ?? FACADE_DEFAULTS.embeddingBatchSize,
    ),
    closeTimeoutMs: options.closeTimeoutMs ?? FACADE_DEFAULTS.closeTimeoutMs,
    fallbackToNone: options.fallbackToNone ?? FACADE_DEFAULTS.fallbackToNone,
    logger: options.logger ?? ((message) => console.warn(message)),
    now: options.now ?? Date.now,
    embeddingWorker: options.embeddingWorker ?? {},
  };
}

/**
 * A backend's options as the facade reads them: the `[memory]` settings as top-level camelCase
 * options (`searchMode`, `minScore`, ...) beside the facade's own options, by the same names on
 * every backend.
 */
export interface FacadeOptionSource
  extends Partial<RetrievalSettings>,
    Omit<MemoryFacadeOptions, "settings" | "embeddingWorker"> {
  /** The worker's timing; a `batchSize` in it (PostgreSQL's spelling) is `embeddingBatchSize`. */
  embeddingWorker?: EmbeddingWorkerOptions & { batchSize?: number };
}

/**
 * The facade's part of a backend's options, for every factory (`createSqliteMemory`,
 * `createPostgresMemory`, `createMarkdownMemory`, Lucid's): only what was given is passed on,
 * so the facade's defaults stay the only defaults.
 */
export function facadeOptionsFrom(options: FacadeOptionSource): MemoryFacadeOptions {
  const settings: Partial<RetrievalSettings> = {};
  for (const name of RETRIEVAL_SETTING_NAMES) {
    if (options[name] !== undefined) Object.assign(settings, { [name]: options[name] });
  }
  const facade: MemoryFacadeOptions = { settings };
  if (options.embedder) facade.embedder = options.embedder;
  if (options.chatModel) facade.chatModel = options.chatModel;
  if (options.deferEmbedding !== undefined) facade.deferEmbedding = options.deferEmbedding;
  if (options.closeTimeoutMs !== undefined) facade.closeTimeoutMs = options.closeTimeoutMs;
  if (options.fallbackToNone !== undefined) facade.fallbackToNone = options.fallbackToNone;
  if (options.logger) facade.logger = options.logger;
  if (options.now) facade.now = options.now;
  let batchSize = options.embeddingBatchSize;
  if (options.embeddingWorker) {
    const { batchSize: workerBatchSize, ...worker } = options.embeddingWorker;
    batchSize ??= workerBatchSize;
    facade.embeddingWorker = worker;
  }
  if (batchSize !== undefined) facade.embeddingBatchSize = batchSize;
  return facade;
}
