import type { EmbeddingProvider, Memory, RetrievalSettings } from "@memory/api";

/** What a factory receives: what the group wants the backend to be opened with. */
export interface FactoryContext {
  /** The embedder to use, if any. */
  embedder?: EmbeddingProvider;
  /**
   * Retrieval settings to apply over the backend's defaults (the `[memory]` options of
   * memory.toml in camelCase, as `resolveRetrievalSettings` takes them, e.g.
   * `{ ftsEarlyReturnScore: 0.1 }`), when the group needs non-default ones. Optional for
   * factories: tests that need settings check that they took effect and skip themselves when
   * the factory ignores them.
   */
  settings?: Partial<RetrievalSettings>;
  /**
   * The clock the backend must use for lease expiry (its `now` option), in epoch milliseconds.
   * The leases group passes one it moves by hand; factories must pass it on.
   */
  now?: () => number;
}

/** A store that can be opened several times (see {@link ConformanceOptions.createShared}). */
export interface SharedStore {
  open(context: FactoryContext): Promise<Memory>;
}

/** How the conformance suite creates the backend under test. */
export interface ConformanceOptions {
  /** Shown in test names. */
  name: string;
  /** Returns a fresh, isolated, empty instance (its own file, schema or directory). */
  create(context: FactoryContext): Promise<Memory>;
  /**
   * Returns a fresh, isolated, empty store that can be opened several times, each `open` giving
   * an independent instance over the SAME data (like two processes on one database file). Used
   * by the concurrency group and by the fingerprint test (reopen with another embedder).
   * Omit it and those tests are skipped.
   */
  createShared?(): Promise<SharedStore>;
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
  | "conflicts";
