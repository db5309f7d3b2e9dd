import type {
  ChatModel,
  EmbeddingProvider,
  IndexDriverFactory,
  RetrievalSettings,
} from "@memory/api";

/**
 * Options of {@link createMarkdownMemory}. The retrieval options (`searchMode`, `minScore`, ...)
 * are `RetrievalSettings` from `@memory/api`, with the same defaults as every backend.
 */
export interface MarkdownMemoryOptions extends Partial<RetrievalSettings> {
  /** The memory tree's root directory (created on the first write). Required. */
  root: string;
  /** Embedding provider; used by the index (vector recall needs `index: true`). */
  embedder?: EmbeddingProvider;
  /**
   * The chat model that confirms conflict decisions close to the line (`conflictConfirm: "chat"`);
   * without one the rules decide alone.
   */
  chatModel?: ChatModel;
  /**
   * Keep a derived SQLite index (FTS5 + vectors + embedding cache) under `.memory-state/`.
   * Default true. Without it, recall runs the engine's pure-JS stages over the parsed files
   * (keyword-only).
   */
  index?: boolean;
  /**
   * Watch the tree (chokidar) and re-read edited files after `watchDebounceMs`, so an edit made
   * in an editor is recallable without waiting for the next operation's check. Default false
   * (every operation already checks the files; turn it on in long-running processes that also
   * want the index warm). `close()` stops it.
   */
  watch?: boolean;
  /** Debounce of the watcher. Default 200 ms. */
  watchDebounceMs?: number;
  /** `embedding_cache_max` of the index. Default 10 000. */
  embeddingCacheMax?: number;
  /** How long a write waits for the tree lock before a TIMEOUT error. Default 30 000 ms. */
  lockTimeoutMs?: number;
  /** A lock older than this is taken over even if its process still runs. Default 60 000 ms. */
  lockStaleMs?: number;
  /** Clock for recall's time decay and lease expiry (tests). Default `Date.now`. */
  now?: () => number;
  /** Where warnings go. Default `console.warn`. */
  logger?: (message: string) => void;
  /**
   * Called during every write after the new file contents are prepared and before they are
   * checked (compare-and-swap) and renamed into place. For tests and tools that simulate an
   * edit landing in the middle of a write; leave it out otherwise.
   */
  beforeCommit?: () => void;
  /** The watcher's reports (re-read files, errors); tests use it. */
  onWatch?: (
    event: { type: "synced"; paths: string[] } | { type: "error"; error: unknown },
  ) => void;
}

/** The storage options of the driver (the rest of `MarkdownMemoryOptions` is the facade's). */
export type MarkdownDriverOptions = Pick<
  MarkdownMemoryOptions,
  | "root"
  | "watch"
  | "watchDebounceMs"
  | "lockTimeoutMs"
  | "lockStaleMs"
  | "beforeCommit"
  | "onWatch"
> & {
  /**
   * Opens the driver of the derived index over `<root>/.memory-state/index.db`; undefined: no
   * index (recall runs the in-memory stages over the parsed files, keyword-only).
   */
  openIndex?: IndexDriverFactory;
};

export const MARKDOWN_DEFAULTS = {
  index: true,
  watch: false,
  watchDebounceMs: 200,
  embeddingCacheMax: 10_000,
  lockTimeoutMs: 30_000,
  lockStaleMs: 60_000,
};
