import type { EmbeddingProvider, MemorySettings } from "@memory/api";
import {
  createInMemoryDriver,
  defaultConfig,
  InMemoryStore,
  MemoryFacade,
  retrievalSettingsFromConfig,
} from "@memory/core";

/** Options of the reference backend. */
export interface InMemoryMemoryOptions {
  /** Share a store between instances; default a new one. */
  store?: InMemoryStore;
  embedder?: EmbeddingProvider;
  /** Retrieval settings (`search_mode`, `merge_strategy`, ...); defaults as in `memory.toml`. */
  settings?: Partial<MemorySettings>;
  /** Clock for lease expiry and time decay (tests); default `Date.now`. */
  now?: () => number;
}

/**
 * The reference backend: `@memory/core`'s facade over its in-memory driver (a Map). It proves
 * the conformance suite (it passes every group) and is handy in unit tests of code that uses a
 * `Memory`. Not persistent; two instances over one `store` behave like two processes.
 */
export class InMemoryMemory extends MemoryFacade {
  constructor(options: InMemoryMemoryOptions = {}) {
    super(createInMemoryDriver({ store: options.store ?? new InMemoryStore() }), {
      ...(options.embedder ? { embedder: options.embedder } : {}),
      ...(options.now ? { now: options.now } : {}),
      settings: retrievalSettingsFromConfig({ ...defaultConfig().memory, ...options.settings }),
    });
  }
}

/** Creates a reference in-memory backend. */
export function createInMemoryMemory(options: InMemoryMemoryOptions = {}): InMemoryMemory {
  return new InMemoryMemory(options);
}
