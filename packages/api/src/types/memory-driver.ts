import type { MemorySettings } from "../config/config-schema.js";
import type { NormalizedFilter } from "../validation.js";
import type { SupersessionRecord } from "./conflict-decision.js";
import type { EmbeddingProvider } from "./embedding-provider.js";
import type { FileBackedMemory } from "./file-backed.js";
import type { DeleteReport, Lease } from "./lifecycle.js";
import type { Capabilities } from "./memory.js";
import type { MemoryEntry, RecallOptions } from "./memory-entry.js";
import type { RecallStages } from "./recall-stages.js";
import type { Relation, RelationDirection } from "./relation.js";
import type { RetrievalSettings } from "./retrieval-settings.js";
import type { DriverUsage, EntryMark } from "./usage.js";

/**
 * What the facade of `@memory/core` hands a driver when it opens it. Everything here is already
 * resolved and validated: the driver only uses it.
 */
export interface DriverContext {
  /** The embedding provider, or undefined for keyword-only recall (never a 0-dimension one). */
  embedder: EmbeddingProvider | undefined;
  /** The `[memory]` settings with every default applied (the stages read `textLanguage`...). */
  settings: RetrievalSettings;
  /** The memory's clock, in epoch milliseconds (lease expiry, time decay). */
  now: () => number;
  /** Where warnings go (adopted legacy data, a repaired index...). */
  logger: (message: string) => void;
}

/**
 * The `[memory]` keys (as memory.toml spells them) a backend does not honour, each with why (one
 * clause, said to people as is). `memory config` and every opening of the store warn when one of
 * them is set to something other than its default.
 */
export type UnhonouredSettings = Readonly<Partial<Record<keyof MemorySettings, string>>>;

/** Identity of an entry: `(namespace, key)`. */
export interface EntryKey {
  namespace: string;
  key: string;
}

/** An entry as the facade wants it stored: validated, with every field decided. */
export type EntryRecord = Omit<
  MemoryEntry,
  "score" | "explain" | "conflict" | "keptVersion" | "embedding"
>;

/**
 * One upsert of a write batch. For a `(namespace, key)` that already exists the driver keeps the
 * stored `id` and `createdAt` (a store is an update of the same entry) unless `replaceId` /
 * `replaceCreatedAt` say the given ones win (an import that carries them). Ids are unique per
 * store: a given id that belongs to ANOTHER `(namespace, key)` marks a copy (an export imported
 * into another namespace), which keeps its stored id, or takes `entry.id`'s place with a new one.
 */
export interface EntryUpsert {
  entry: EntryRecord;
  replaceId?: boolean;
  replaceCreatedAt?: boolean;
  /** The document vector of `entry.content`, already validated against the provider's size. */
  vector?: ArrayLike<number>;
}

/**
 * Marks `key` superseded by `supersededBy` (only if `key` exists); `null` clears the mark, making
 * the entry current again (`unsupersede`).
 */
export interface Supersession extends EntryKey {
  supersededBy: string | null;
  /**
   * Why (`MemoryEntry.supersessionRecord`), stored with the mark; a supersession without one (and
   * every `null` one) removes a record the entry had.
   */
  record?: SupersessionRecord;
}

/** Removes the edges from `from` to `to` of `type` (of every type when absent). */
export interface RelationRemoval {
  namespace: string;
  from: string;
  to: string;
  type?: string;
}

/**
 * ONE unit of work: it all happens or nothing does (one transaction on SQL, one locked rewrite
 * of the tree on Markdown). Applied in this order: upserts, supersessions, marks, relations,
 * unrelations, deletes. Deleting an entry (here, in `deleteWhere`, anywhere) removes every edge
 * from or to it; superseding one removes none.
 */
export interface WriteBatch {
  upserts: readonly EntryUpsert[];
  supersessions: readonly Supersession[];
  deletes: readonly EntryKey[];
  /**
   * Edge upserts (`capabilities.relations` only), validated by the facade. On an existing
   * `(namespace, from, to, type)` the stored weight becomes the larger of the two, the metadata
   * is replaced when given (kept when not), `createdAt` stays and `updatedAt` is the given one;
   * `createdAt` of an existing edge is replaced only with `replaceCreatedAt` (an import). An edge
   * whose `from` or `to` entry does not exist (after this batch's upserts) is not written.
   */
  relations?: readonly RelationUpsert[];
  unrelations?: readonly RelationRemoval[];
  /**
   * Pins and snoozes (`capabilities.usage` only): each changes those fields of an existing entry
   * and nothing else (not `updatedAt`, not the content's index).
   */
  marks?: readonly EntryMark[];
  /**
   * Recorded as the fingerprint of stored vectors when the store has none yet (the first vector
   * ever written); never replaces a recorded one (that is `vectors.reset`).
   */
  vectorFingerprint?: string;
  /**
   * Imports: an upsert the store refuses on its own account (a vector of another size than the
   * stored ones) is skipped and listed in `WriteResult.refused` instead of failing the batch.
   */
  refuseInvalidEntries?: boolean;
}

/** What a write batch did, position by position. */
export interface WriteResult {
  /** The stored entries, with the `id` and `createdAt` the driver kept or took (undefined: refused). */
  upserted: (MemoryEntry | undefined)[];
  /** Upserts skipped under `refuseInvalidEntries`, by position in `upserts`, with a code and the reason. */
  refused: { index: number; code: string; message: string }[];
  /** Whether each supersession found its entry. */
  superseded: boolean[];
  /** Whether each delete found its entry. */
  deleted: boolean[];
  /** The stored edge of each `relations` item, as it is now (undefined: an endpoint is missing). */
  related?: (Relation | undefined)[];
  /** How many edges each `unrelations` item removed. */
  unrelated?: number[];
  /** Each mark's entry as it is now (undefined: no such entry). */
  marked?: (MemoryEntry | undefined)[];
}

/** One edge upsert of a write batch. */
export interface RelationUpsert {
  relation: Relation;
  /** The given `createdAt` wins over a stored one (an import that carries it). */
  replaceCreatedAt?: boolean;
}

/** Which edges `DriverRelations.find` returns. */
export interface RelationQuery {
  namespace: string;
  /** Edges of any of these keys (from them with `out`, to them with `in`, either with `both`). */
  keys: readonly string[];
  direction: RelationDirection;
  /** Only these types; undefined: every type. */
  types?: readonly string[];
  /** At most this many; undefined: every one (export). */
  limit?: number;
}

/** Edge storage (`capabilities.relations`); the facade validates and decides, the driver stores. */
export interface DriverRelations {
  /** Matching edges, weight descending, then `updatedAt` descending, then from, to, type. */
  find(query: RelationQuery): Promise<Relation[]>;
}

/**
 * How a scan orders entries. Ties always break in a stable order of the driver's choosing (a
 * row id, or the key), so that pages neither repeat nor skip entries.
 * - `newest`: `updatedAt` descending (`list`).
 * - `oldest`: `createdAt` ascending (`export`; paged with `after`).
 * - `importance`: importance descending, an unset importance counting as `unsetImportance`,
 *   then `updatedAt` descending (`topCore`).
 */
export type ScanOrder =
  | { by: "newest" }
  | { by: "oldest" }
  | { by: "importance"; unsetImportance: number };

export interface ScanRequest {
  filter: NormalizedFilter;
  order: ScanOrder;
  /** At most this many entries (the facade caps it). */
  limit: number;
  /** Entries to skip first (`list`'s offset). */
  offset?: number;
  /** Continue after this cursor (a `ScanPage.next` of the same request). */
  after?: unknown;
  withEmbeddings?: boolean;
}

export interface ScanPage {
  entries: MemoryEntry[];
  /** Where the next page starts; undefined when this page was the last. */
  next?: unknown;
}

/**
 * A bulk deletion, already validated by the facade. `keepNewest` is the retention floor: the N
 * newest entries of each (namespace, category) by `updatedAt` then key are kept whatever the other
 * conditions say (SQL pushes it down as a window function; in-memory drivers use `planDeletion`).
 */
export interface DeleteWhere {
  /** Undefined: every namespace. */
  namespace: string | undefined;
  sessionId?: string;
  categories: readonly string[] | undefined;
  /** Only entries whose `updatedAt` is before this (RFC 3339, fixed precision). */
  olderThan: string | undefined;
  /** Only superseded (true) or only current (false) entries. */
  superseded: boolean | undefined;
  keepNewest: number;
  /**
   * Pinned entries are kept whatever the other conditions say, and are not counted as eligible
   * (hygiene sets it); they still hold their place in the `keepNewest` ranking.
   */
  keepPinned?: boolean;
  /** Count what would go, delete nothing. */
  dryRun: boolean;
}

/** Lease and job-state storage: the facade validates names, TTLs and JSON; the driver stores. */
export interface DriverLeases {
  /**
   * In one atomic step, takes `name` for `holder` until `nowMs + ttlMs` when it is free, expired
   * (at `nowMs`) or held by `holder` (same token); the token goes up by one each time the lease is
   * taken after being free, released or expired. Null when another holder has it.
   */
  acquire(name: string, holder: string, ttlMs: number, nowMs: number): Promise<Lease | null>;
  /** Expires the lease (keeping its token) only if name, holder and token match. */
  release(lease: Lease): Promise<boolean>;
  /** The JSON text last saved for `job`, or null. */
  readJobState(job: string): Promise<string | null>;
  writeJobState(job: string, json: string): Promise<void>;
}

/** An entry whose current content has no vector yet, as the embedding jobs read it. */
export interface PendingEntry {
  id: string;
  namespace: string;
  content: string;
  /** Opaque to the facade: handed back to `save`, which skips the vector if the content changed. */
  contentHash: string;
}

/** Vector storage beside the entries (the provider calls are the facade's). */
export interface DriverVectors {
  /** Up to `limit` pending entries after `after` in the driver's own order, and the next cursor. */
  pending(after: unknown, limit: number): Promise<{ entries: PendingEntry[]; next: unknown }>;
  /** How many entries have no vector for their current content. */
  countPending(): Promise<number>;
  /**
   * Saves vectors for pending entries whose content hash still matches (stale ones are skipped),
   * records `fingerprint` when none is recorded; returns how many were written.
   */
  save(
    vectors: readonly { entry: PendingEntry; vector: ArrayLike<number> }[],
    fingerprint: string,
  ): Promise<number>;
  /** The fingerprint the stored vectors were made with, if any. */
  fingerprint(): Promise<string | undefined>;
  /** Drops every stored vector and records `fingerprint` (reindex). */
  reset(fingerprint: string): Promise<void>;
}

/** A persistent embedding cache keyed by text and provider fingerprint (`embedding_cache_max`). */
export interface DriverEmbeddingCache {
  /** Cached vectors of `texts`, position by position. */
  lookup(texts: readonly string[], fingerprint: string): Promise<(ArrayLike<number> | undefined)[]>;
  save(
    items: readonly { text: string; vector: ArrayLike<number> }[],
    fingerprint: string,
  ): Promise<void>;
}

/** The driver's part of `healthCheck`; the facade adds the common fields. */
export interface DriverHealth {
  /** Number of entries in every namespace, when cheap to know. */
  entries?: number;
  /** Whether a write can succeed now (a real tiny write where the driver can). */
  storage?: { writable: boolean; reason?: string };
  /** Why vector search is unusable even with a matching provider (an index failed to load...). */
  vectorProblem?: string;
  /** Driver facts: file, size, schema version... */
  details: Record<string, unknown>;
}

/**
 * Storage for `@memory/core`'s facade, which implements `Memory` once over it. The facade owns
 * every rule (validation, defaults and caps, closed state, the recall engine and its cache,
 * conflict detection, the import loop, deletion plans, lease validation, embedding); a driver only
 * stores and finds, and validates nothing the facade validates. Methods other than `open` are
 * called only after `open` resolved and before `close`.
 */
export interface MemoryDriver {
  /** Backend name (`sqlite`, `postgres`, `markdown`, `memory`, `none`). */
  readonly name: string;
  /** What this backend can do; `deferredEmbedding` says `defer_embedding` is honoured. */
  readonly capabilities: Capabilities;
  /**
   * The `[memory]` keys this driver does not honour, with why; `{}` when it honours every one.
   * The one declaration: the backend module exports this same object (`BackendModule`).
   */
  readonly unhonouredSettings: UnhonouredSettings;
  /** Opens (and migrates) the store; called once, and again only after a rejection. */
  open(context: DriverContext): Promise<void>;
  /** Releases what the driver created (never an injected client). Called once. */
  close(): Promise<void>;
  /** Entries by identity, position by position (undefined where absent). */
  read(
    keys: readonly EntryKey[],
    options?: { withEmbeddings?: boolean },
  ): Promise<(MemoryEntry | undefined)[]>;
  /** Applies one batch atomically (see {@link WriteBatch}); rejects and changes nothing on failure. */
  write(batch: WriteBatch): Promise<WriteResult>;
  /** One page of entries matching the filter, in the requested order. */
  scan(request: ScanRequest): Promise<ScanPage>;
  /** Entries matching the filter; agrees with `scan`. */
  count(filter: NormalizedFilter): Promise<number>;
  /** Deletes (or with `dryRun` counts) what matches, in one step; the report per category. */
  deleteWhere(filter: DeleteWhere): Promise<DeleteReport>;
  /** The recall engine's storage access (valid once open). */
  readonly recallStages: RecallStages;
  readonly leases: DriverLeases;
  readonly vectors: DriverVectors;
  /**
   * Optional: wraps a whole import (its many write batches), so that a driver can make them
   * cheaper while it runs (PostgreSQL drops the indexes of tables that were empty and builds
   * each once at the end). Every batch inside stays atomic; readers see every committed batch.
   */
  bulkLoad?<T>(work: () => Promise<T>): Promise<T>;
  /** Present when the driver keeps a persistent embedding cache. */
  readonly embeddingCache?: DriverEmbeddingCache;
  health(): Promise<DriverHealth>;
  /** The file-backed extension (`capabilities.fileBacked`); the facade exposes it as `files`. */
  readonly files?: FileBackedMemory;
  /** Edge reads (`capabilities.relations`); edges are written through `write`. */
  readonly relations?: DriverRelations;
  /** Usage events and statistics, pins and snoozes (`capabilities.usage`; docs/usage.md). */
  readonly usage?: DriverUsage;
  /**
   * Optional external source, for decorators such as `@memory/lucid`: the facade calls it after
   * every recall with the engine's (already validated, filtered, limited) results, and answers
   * what it returns. A supplement must never fail the recall because its source failed.
   */
  supplementRecall?(
    query: string,
    options: RecallOptions,
    found: MemoryEntry[],
  ): Promise<MemoryEntry[]>;
  /**
   * Optional: waits up to `timeoutMs` for the driver's own background work (a decorator's syncs),
   * after the facade's deferred embeddings; rejects with `MemoryTimeoutError` when some is left.
   */
  flush?(timeoutMs: number): Promise<void>;
}
