import type { FileBackedMemory } from "./file-backed.js";
import type { DeleteFilter, DeleteReport, JobState, Lease } from "./lifecycle.js";
import type {
  CountOptions,
  ExportFilter,
  GetOptions,
  ImportEntry,
  KeyOptions,
  ListOptions,
  MemoryEntry,
  RecallOptions,
  RecallResults,
  StoreInput,
} from "./memory-entry.js";
import type { ExplainRecallOptions, RecallTrace } from "./recall-trace.js";
import type {
  RelateOptions,
  Relation,
  RelationsOptions,
  RelationType,
  UnrelateOptions,
} from "./relation.js";
import type {
  FeedbackInput,
  FeedbackReport,
  PruneUsageOptions,
  SnoozeOptions,
  TrackRecallInput,
  UsageOptions,
  UsageReport,
} from "./usage.js";

/**
 * What a backend can do. Code that composes backends branches on these flags instead of probing.
 * Claiming a capability means passing that capability's `@memory/testkit` group.
 */
export interface Capabilities {
  /** BM25-style keyword recall. */
  keywordSearch: boolean;
  /** Vector recall (needs an embedding provider at run time as well). */
  vectorSearch: boolean;
  /** Keyword recall finds Chinese/Japanese/Korean text. */
  cjkSearch: boolean;
  /** Data survives `close()` and a new process. */
  persistent: boolean;
  /** Several instances (processes) may use one store at once. */
  multiInstance: boolean;
  /** `store` can return before the embedding is computed (`defer_embedding`). */
  deferredEmbedding: boolean;
  /** The store is a tree of files with the `FileBackedMemory` extension, exposed as `files`. */
  fileBacked?: boolean;
  /** Typed edges between entries (`relate`, `unrelate`, `relations`; docs/relations.md). */
  relations?: boolean;
  /** Recall ids and feedback, usage statistics, pins and snoozes (docs/usage.md). */
  usage?: boolean;
}

/** The result of `Memory.healthCheck()`. */
export interface HealthReport {
  /**
   * True when the backend is usable: it answers and it can be written. A store that can only
   * be read (full disk, read-only file) reports false, with `storage` saying why.
   */
  ok: boolean;
  /** Whether a write can succeed now, checked by a real (tiny) write where the backend can. */
  storage?: {
    writable: boolean;
    /** Why not, and what to do; present when `writable` is false. */
    reason?: string;
  };
  backend: string;
  /** Number of entries in the store (all namespaces), when cheap to know. */
  entries?: number;
  /** Entries stored but not yet embedded (deferred or failed). */
  pendingEmbeddings: number;
  /** The state of vector recall. */
  vector: {
    /** `ok`, `disabled` (no provider), or `degraded` (present but unusable; see `reason`). */
    status: "ok" | "disabled" | "degraded";
    /** The provider's fingerprint. */
    providerFingerprint?: string;
    /** The fingerprint the stored vectors were made with. */
    storedFingerprint?: string;
    /** Why vector recall is not available, and what to run. */
    reason?: string;
  };
  /** Backend-specific facts (file path, size in bytes, schema version...). */
  details: Record<string, unknown>;
}

/** Progress of a long job (`reindex`, `backfillEmbeddings`, imports). */
export interface Progress {
  done: number;
  total: number;
}

export interface ReindexOptions {
  onProgress?: (progress: Progress) => void;
  batchSize?: number;
  signal?: AbortSignal;
}

export interface BackfillOptions extends ReindexOptions {}

/** The outcome of `reindex` or `backfillEmbeddings`. */
export interface EmbeddingJobReport {
  /** Entries that received an embedding. */
  embedded: number;
  /** Entries whose embedding failed (they keep working for keyword recall). */
  failed: number;
  /** Entries still without an embedding. */
  remaining: number;
}

export interface ImportOptions {
  onProgress?: (progress: { done: number }) => void;
  /**
   * Stops the import between batches: what was committed stays, and `importEntries` resolves
   * with it and `interrupted: true` (it does not reject), so a caller can say what was kept.
   */
  signal?: AbortSignal;
}

/** One rejected entry of an import, with its 0-based position in the input. */
export interface ImportRejection {
  index: number;
  key?: string;
  code: string;
  message: string;
}

/** The outcome of `importEntries`. Idempotent on `(namespace, key)`. */
export interface ImportReport {
  /** Entries written (new or updated). */
  imported: number;
  /**
   * Entries rejected because they are invalid (bad field, wrong vector size, conflicting id),
   * with the reason; the rest of the import goes on. A failure of the store itself (full disk,
   * lost connection) is never a rejection: it stops the import with a typed error whose
   * `details.imported` counts the entries committed before it (see `importStoppedError`).
   */
  rejected: ImportRejection[];
  /** True when `options.signal` stopped the import before the end of the input. */
  interrupted?: boolean;
  /**
   * The entries' outgoing relations (export format 2): how many were written, and those that
   * were not (a target that is in neither the import nor the store, a backend without
   * `capabilities.relations`), each with the position of its entry. Absent when none came.
   */
  relations?: { imported: number; rejected: ImportRejection[] };
}

export interface FlushOptions {
  /** Give up waiting after this many milliseconds (default 30 000) with a TIMEOUT error. */
  timeoutMs?: number;
}

/**
 * A long-term memory store. Every backend implements all of it; where a backend truly cannot,
 * it throws `UnsupportedOperationError` and says so in `capabilities`.
 *
 * Every operation except `close` fails with `MemoryClosedError` after `close()`.
 */
export interface Memory extends AsyncDisposable {
  /** Backend name (`sqlite`, `postgres`, ...). */
  readonly name: string;
  readonly capabilities: Capabilities;
  /** The file-backed extension, when `capabilities.fileBacked` (read it with `fileBackedOf`). */
  readonly files?: FileBackedMemory | undefined;

  /**
   * Upsert on `(namespace, key)`: content, category, importance, session and `updatedAt` change,
   * `id` and `createdAt` stay. Clears `supersededBy`. When the content changes, the previous
   * content is kept as a version (see `history`), in the same write.
   */
  store(input: StoreInput): Promise<MemoryEntry>;
  /** The entry, or `null` when absent. */
  get(key: string, options?: GetOptions): Promise<MemoryEntry | null>;
  /** The best entries for `query`, each with `score` and `explain`. An empty query (or `*`) returns the most recent entries. */
  recall(query: string, options?: RecallOptions): Promise<RecallResults>;
  /**
   * The same recall, traced ("why, and why not?"): the settings as numbers, each stage, and
   * every candidate, kept or dropped with the reason (under the threshold, superseded, filtered,
   * over the limit...) and its full `explain`. `results` is what `recall` returns. Never cached;
   * with `key`, `focus` says why that key is or is not in the results, even when no stage
   * picked it. Costs a few recalls (a second search finds what the filter left out).
   */
  explainRecall(query: string, options?: ExplainRecallOptions): Promise<RecallTrace>;
  /** Entries newest first (by `updatedAt`). */
  list(options?: ListOptions): Promise<MemoryEntry[]>;
  /** Deletes one entry; true when it existed. */
  forget(key: string, options?: KeyOptions): Promise<boolean>;
  /** Deletes every entry of a namespace; returns how many. */
  purgeNamespace(namespace: string): Promise<number>;
  /** Deletes every entry of a session (in one namespace, or in all when none is given); returns how many. */
  purgeSession(sessionId: string, options?: KeyOptions): Promise<number>;
  /** Counts entries; agrees with `list` on the same filter. */
  count(options?: CountOptions): Promise<number>;
  /** Streams entries oldest first (by `createdAt`, then `id`); nothing is held in memory all at once. */
  export(filter?: ExportFilter): AsyncIterable<MemoryEntry>;
  /**
   * Writes entries (upsert on `(namespace, key)`), keeping ids and timestamps when given. Ids are
   * unique per store: an entry whose id belongs to another `(namespace, key)` is a copy (an export
   * imported into another namespace) and gets an id of its own.
   */
  importEntries(
    entries: Iterable<ImportEntry> | AsyncIterable<ImportEntry>,
    options?: ImportOptions,
  ): Promise<ImportReport>;
  /** The most important core entries (importance, then recency). */
  topCore(limit: number, options?: KeyOptions): Promise<MemoryEntry[]>;
  /** Marks `oldKey` superseded by `newKey`; true when `oldKey` existed. */
  markSuperseded(oldKey: string, newKey: string, options?: KeyOptions): Promise<boolean>;
  /**
   * Makes a superseded entry current again (clears `supersededBy`, keeps everything else) and
   * returns it. Throws NOT_FOUND when there is no entry under `key`, CONFLICT when it is not
   * superseded, and INVALID_INPUT for a kept version's key (`<key>::history:<n>`: store its
   * content under `<key>` to bring it back).
   */
  unsupersede(key: string, options?: KeyOptions): Promise<MemoryEntry>;
  /**
   * The versions of `key`, newest first: the entry itself (when it exists), then the earlier
   * contents a same-key `store` replaced (kept under `<key>::history:<n>`, superseded by `key`,
   * at most `history_versions` of them). Each has its `updatedAt`: when that content was stored.
   * Empty when there is neither the entry nor a kept version.
   */
  history(key: string, options?: KeyOptions): Promise<MemoryEntry[]>;
  /**
   * Deletes, in one step, every entry that matches `filter` (one namespace, by default
   * `"default"`, or `allNamespaces`; optionally only some categories, only entries whose
   * `updatedAt` is before `olderThan`, only superseded or only current ones), except the
   * retention floor: with `keepNewest: N`, the N newest entries of each (namespace, category),
   * by `updatedAt` then key, are kept whatever the other conditions say. Deleted entries are gone
   * from `get`, `list`, `count`, `recall` and `export` (and from the vector index). With
   * `dryRun` nothing is deleted and the report gives the same numbers. Throws INVALID_INPUT for
   * an inconsistent filter (`namespace` with `allNamespaces`, empty `categories`, a negative or
   * fractional `keepNewest`, an `olderThan` that is not RFC 3339).
   */
  deleteEntries(filter: DeleteFilter): Promise<DeleteReport>;
  /**
   * Atomically takes the lease `name` for `holder` for `ttlMs` milliseconds (1 to 86,400,000)
   * when it is free, expired, or already held by `holder` (then it extends it, same token).
   * Returns null when another holder has it. Every instance over one store (every process on
   * one database) sees the same leases; expiry is judged by the memory's clock (its `now`
   * option). The token strictly increases each time the lease is taken after being free,
   * released or expired: pass it along with writes a stale holder must not make (fencing).
   */
  acquireLease(name: string, holder: string, ttlMs: number): Promise<Lease | null>;
  /**
   * Releases only if name, holder and token still match (a stale holder whose lease was reclaimed gets false and changes nothing).
   * A released lease can be taken at once, with a new token.
   */
  releaseLease(lease: Lease): Promise<boolean>;
  /** The state last saved for `job` in this store, or null. */
  getJobState(job: string): Promise<JobState | null>;
  /** Replaces the state of `job` (a JSON object of at most 1 MiB; what JSON drops is not kept). */
  setJobState(job: string, state: JobState): Promise<void>;
  /**
   * Relates `from` to `to` (two entries of one namespace) with a typed, weighted edge, and returns
   * it. Idempotent on `(namespace, from, to, type)`: relating again keeps the stronger weight,
   * and replaces the metadata when some is given. Throws NOT_FOUND when either entry is missing
   * (store it first), INVALID_INPUT for a self-relation, a bad type, a weight outside [0, 1],
   * metadata that is not a small JSON object or a `toNamespace` other than `namespace`, and
   * UNSUPPORTED on a backend without `capabilities.relations`.
   */
  relate(from: string, to: string, type: RelationType, options?: RelateOptions): Promise<Relation>;
  /** Removes the edges from `from` to `to` (of `type`, or of every type); returns how many. */
  unrelate(
    from: string,
    to: string,
    type?: RelationType,
    options?: UnrelateOptions,
  ): Promise<number>;
  /**
   * The edges of `key` (outgoing, incoming or both), strongest first, then newest. Throws
   * NOT_FOUND when there is no entry under `key`.
   */
  relations(key: string, options?: RelationsOptions): Promise<Relation[]>;
  /**
   * Records which results of a recall (or a memory context) the agent used, and which it
   * ignored (docs/usage.md). Throws NOT_FOUND for an unknown `recallId` (or one whose events
   * retention already removed), INVALID_INPUT for a key that was not one of its results, and
   * UNSUPPORTED on a backend without `capabilities.usage`. Recording the same key twice counts once.
   */
  feedback(input: FeedbackInput): Promise<FeedbackReport>;
  /**
   * Feedback inferred from the assistant's reply, for agents that will not call `feedback`: a
   * result counts as used when the reply quotes its distinctive words (docs/usage.md), as
   * ignored otherwise. The same errors as `feedback` for the id; the report says what it inferred.
   */
  feedbackFromReply(recallId: string, reply: string, options?: KeyOptions): Promise<FeedbackReport>;
  /**
   * Records results an agent's own retrieval surfaced (the memory context calls it with the
   * entries it shows) and returns their `recallId` for `feedback`.
   */
  trackRecall(input: TrackRecallInput): Promise<string>;
  /** Pins `key` (see `MemoryEntry.pinned`) and returns the entry. NOT_FOUND when absent. */
  pin(key: string, options?: KeyOptions): Promise<MemoryEntry>;
  unpin(key: string, options?: KeyOptions): Promise<MemoryEntry>;
  /**
   * Leaves `key` out of recall and the memory context until `until` (or for `forMs`), and
   * returns the entry. NOT_FOUND when absent; INVALID_INPUT for a time in the past.
   */
  snooze(key: string, options: SnoozeOptions): Promise<MemoryEntry>;
  unsnooze(key: string, options?: KeyOptions): Promise<MemoryEntry>;
  /** Usage statistics of a namespace's entries, with pin and snooze candidates on request. */
  usage(options?: UsageOptions): Promise<UsageReport>;
  /**
   * Removes usage events past the retention (`usage_event_retention_days`, `usage_event_max`);
   * the per-entry statistics stay. Returns how many events went. Hygiene calls it.
   */
  pruneUsage(options?: PruneUsageOptions): Promise<number>;
  healthCheck(): Promise<HealthReport>;
  /** Re-embeds every entry with the current provider and records its fingerprint. */
  reindex(options?: ReindexOptions): Promise<EmbeddingJobReport>;
  /** Embeds entries that have no embedding yet. */
  backfillEmbeddings(options?: BackfillOptions): Promise<EmbeddingJobReport>;
  /** Waits for deferred work (background embeddings). */
  flush(options?: FlushOptions): Promise<void>;
  /** Drains deferred work, releases resources it created. Idempotent. */
  close(): Promise<void>;
}
