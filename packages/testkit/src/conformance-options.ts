import type { EmbeddingProvider, Memory, RetrievalSettings } from "@memory/api";
import type { EmbeddingWorkerOptions } from "@memory/core";

/**
 * The deferred-embedding options the `deferredEmbedding` group opens the backend with. Each
 * factory passes them on under the backend's own option names (`deferEmbedding`,
 * `embeddingBatchSize` or `embeddingWorker.batchSize`, `embeddingWorker`).
 */
export interface EmbeddingJobOptions {
  /** `defer_embedding`: store returns before the vector is computed. */
  deferEmbedding: boolean;
  /** Entries per provider call of the worker (and per read of pending rows). */
  batchSize?: number;
  /** The worker's timing; the group injects `sleep` so nothing waits on the wall clock. */
  worker?: EmbeddingWorkerOptions;
}

/** What a factory receives: what the group wants the backend to be opened with. */
export interface FactoryContext {
  /** The embedder to use, if any. */
  embedder?: EmbeddingProvider;
  /**
   * Retrieval settings to apply over the backend's defaults (the `[memory]` options of
   * memory.toml in camelCase, as `resolveRetrievalSettings` takes them, e.g.
   * `{ ftsEarlyReturnScore: 0.1 }`), when the group needs non-default ones. Every factory must
   * pass them on: the tests that need settings check that they took effect and fail otherwise.
   */
  settings?: Partial<RetrievalSettings>;
  /**
   * The clock the backend must use for lease expiry (its `now` option), in epoch milliseconds.
   * The leases groups pass one they move by hand; factories must pass it on.
   */
  now?: () => number;
  /** Deferred-embedding options (only the `deferredEmbedding` group passes them). */
  embeddingJobs?: EmbeddingJobOptions;
}

/** A store that can be opened several times (see {@link ConformanceOptions.createShared}). */
export interface SharedStore {
  open(context: FactoryContext): Promise<Memory>;
  /**
   * Where the store is, as a string a child process can open it from (a file path, a folder, a
   * JSON object of connection string and schema...): handed, as it is, to the module of
   * {@link ConformanceOptions.childOpener}. Required when `multiProcess` is declared.
   */
  location?: string;
}

/**
 * The optional parts of the suite a backend takes part in. A feature that is not declared
 * registers none of its tests (the suite names it once, in the title of its declarations test);
 * a declared feature never skips: a test whose precondition is missing at run time fails and
 * says what is missing.
 */
export type ConformanceFeature =
  /** `capabilities.vectorSearch` with an embedder: vector recall, degraded recall, early return, vector parts of other groups. */
  | "vectorSearch"
  /** `capabilities.cjkSearch`: keyword recall finds Chinese, Japanese and Korean words. */
  | "cjkSearch"
  /** `createShared`: several instances in one process over one store (concurrency, shared leases, reopen with other settings). */
  | "sharedStore"
  /** `capabilities.persistent`: data survives `close()` (needs `sharedStore`). */
  | "persistent"
  /** `capabilities.deferredEmbedding`: the `deferredEmbedding` group (needs `vectorSearch`; its restart tests `persistent`). */
  | "deferredEmbedding"
  /** Child processes open the same store: the `multiProcessLeases` group (needs `sharedStore` with `location`, and `childOpener`). */
  | "multiProcess"
  /** `capabilities.relations`: typed edges between entries (the `relations` group; docs/relations.md). */
  | "relations"
  /** `capabilities.usage`: recall ids, feedback, usage statistics, pins and snoozes (the `usage` group; docs/usage.md). */
  | "usage";

/** Every feature, in the order the suite reports them. */
export const CONFORMANCE_FEATURES: readonly ConformanceFeature[] = [
  "vectorSearch",
  "cjkSearch",
  "sharedStore",
  "persistent",
  "deferredEmbedding",
  "multiProcess",
  "relations",
  "usage",
];

/** How the conformance suite creates the backend under test. */
export interface ConformanceOptions {
  /** Shown in test names. */
  name: string;
  /**
   * What the backend takes part in besides the groups every backend runs (see
   * {@link ConformanceFeature}). Declaring less than the backend's `capabilities` say fails the
   * suite, as does declaring something a run-time check then finds missing.
   */
  supports: readonly ConformanceFeature[];
  /** Returns a fresh, isolated, empty instance (its own file, schema or directory). */
  create(context: FactoryContext): Promise<Memory>;
  /**
   * Returns a fresh, isolated, empty store that can be opened several times, each `open` giving
   * an independent instance over the SAME data (like two processes on one database file).
   * Required by `sharedStore` (and so by `persistent`, `deferredEmbedding`, `multiProcess`).
   */
  createShared?(): Promise<SharedStore>;
  /**
   * For `multiProcess`: the absolute path of a module (TypeScript is fine: children run with
   * `--import tsx`) whose export `openShared(location, { now })` returns a `Memory` over the
   * store at `SharedStore.location`. The `multiProcessLeases` group runs it in child processes.
   */
  childOpener?: string;
  /** Scale of the bulk tests (export/import of 10k entries); default 10 000. */
  bulkSize?: number;
  /** Per-test timeout in ms; default 60 000. */
  timeoutMs?: number;
}

/** The behaviour groups of the suite. */
export type ConformanceGroup =
  | "crud"
  | "keywordRecall"
  | "vectorRecall"
  | "filters"
  | "listCount"
  | "purge"
  | "exportImport"
  | "supersession"
  | "history"
  | "close"
  | "hostileInputs"
  | "concurrency"
  | "recallScores"
  | "recallOrder"
  | "earlyReturn"
  | "conversationContext"
  | "textLanguage"
  | "degradedRecall"
  | "bulkDelete"
  | "leases"
  | "conflicts"
  | "deferredEmbedding"
  | "multiProcessLeases"
  | "recallTrace"
  | "relations"
  | "usage";
