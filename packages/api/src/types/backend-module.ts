import type { MemoryConfig } from "../config/config-schema.js";
import type { ChatModel } from "./chat-model.js";
import type { EmbeddingProvider } from "./embedding-provider.js";
import type { Memory } from "./memory.js";
import type { UnhonouredSettings } from "./memory-driver.js";

/** What `createMemory` hands to a backend package's factory. */
export interface BackendContext {
  /** The resolved embedding provider; `undefined` means keyword-only. */
  embedder?: EmbeddingProvider;
  /** The chat model of `conflict_confirm = "chat"` (resolved from `chat_provider`). */
  chatModel?: ChatModel;
  /**
   * The caller keeps the memory open for long (`memory serve`, `memory mcp`, `memory worker`):
   * a backend may start what only pays off then (the Markdown backend's file watcher).
   */
  longRunning?: boolean;
  /** Where the backend's warnings go (the app's logger); absent: the backend's default. */
  log?: (message: string) => void;
}

/**
 * Which physical store a configuration opens, as the backend itself resolves it (its defaults,
 * relative paths, environment fallbacks), so apps never re-derive a backend's paths.
 */
export interface StoreDescription {
  /**
   * Equal for two configurations that open the same store, different otherwise: compare these
   * (e.g. `sqlite:/abs/real/path/brain.db`, `postgres://host:5432/db#schema`). Holds no secret.
   */
  identity: string;
  /** Where the store is, for people: a file path, a URL without its password plus the schema. */
  location: string;
}

/**
 * Advice `memory doctor` gives for this backend's stores, by configuration key (never by code
 * option). Each hook is optional; doctor falls back to generic advice without it.
 */
export interface BackendDoctorHints {
  /** What to change when the store opens but cannot be written. */
  notWritable?(config: MemoryConfig): string;
  /**
   * A store that does not answer (`healthCheck().ok` false): what is wrong, for people, and what
   * to check. `error` is the health report's error text; `file` is the configuration file read.
   */
  unavailable?(
    config: MemoryConfig,
    error: string,
    context: { file?: string | undefined; env?: Record<string, string | undefined> },
  ): { message: string; fix: string };
}

/** The shape every backend package (`@memory/<backend>`) exports so it can be loaded by name. */
export interface BackendModule {
  createMemoryFromConfig(config: MemoryConfig, context: BackendContext): Memory | Promise<Memory>;
  /**
   * Optional: which store `config` would open, without opening it (no connection, no file
   * created). Throws a `ConfigError` for a configuration `createMemoryFromConfig` would reject.
   * Backends without it are not described (`describeConfiguredStore` gives `undefined`).
   */
  describeStore?(config: MemoryConfig): StoreDescription;
  /**
   * Optional: the `[memory]` keys this backend does not honour (absent: it honours every one).
   * The driver declares them (`MemoryDriver.unhonouredSettings`); the module exports that same
   * object, so `memory config` can warn without opening a store.
   */
  unhonouredSettings?: UnhonouredSettings;
  /** Optional: backend-specific advice for `memory doctor`. */
  doctorHints?: BackendDoctorHints;
}
