/**
 * Usage: what recall surfaced, what the agent used, and the marks a person sets (pins and
 * snoozes). docs/usage.md says what each number means and what ranking does with it.
 */

/** Where a recall event came from. */
export type UsageSource = "recall" | "context" | "tracked";

/**
 * One row of the append-only, bounded event table. A recall appends one `surfaced` event per
 * result; feedback appends `used` and `ignored` events under the same `recallId`.
 */
export interface UsageEvent {
  recallId: string;
  namespace: string;
  key: string;
  kind: "surfaced" | "used" | "ignored";
  /** UTC ISO-8601 with millisecond precision. */
  at: string;
  /**
   * The query: a hash (`sha256:<hex>`, the default) or, with `usage_store_queries = true`, its
   * text. Absent for events without a query (a recall of the most recent entries).
   */
  query?: string;
  source: UsageSource;
}

/** Per-entry usage statistics (`Memory.usage`, `export`). */
export interface UsageStats {
  /** Times a recall or a memory context returned the entry. */
  surfaced: number;
  /** Times feedback said the agent used it. */
  used: number;
  /** Times feedback said the agent ignored it. */
  ignored: number;
  /** Distinct queries it was used for (docs/usage.md: counted by query hash). */
  queries: number;
  /** Distinct UTC days it was used on. */
  days: number;
  lastSurfacedAt?: string;
  lastUsedAt?: string;
}

/**
 * What a driver stores per entry: the statistics and the bookkeeping that keeps them exact
 * across calls (the last day of use, the most recent distinct query hashes). The facade computes
 * every field; the driver stores the record as it is given.
 */
export interface UsageRecord {
  namespace: string;
  key: string;
  stats: UsageStats;
  /** The last UTC day (`YYYY-MM-DD`) the entry was used on. */
  lastUsedDay?: string;
  /** Query hashes of the most recent distinct uses, newest last (bounded by the facade). */
  recentQueries: string[];
}

/** Input of `Memory.feedback`. */
export interface FeedbackInput {
  /** The `recallId` of a recall or a memory context. */
  recallId: string;
  /** Keys of results the agent used (each must be a result of that recall). */
  used: string[];
  /** Keys of results the agent looked at and did not use. */
  ignored?: string[];
  /** Defaults to `"default"`: the namespace the recall ran in. */
  namespace?: string;
}

/** What `Memory.feedback` recorded. */
export interface FeedbackReport {
  recallId: string;
  used: string[];
  ignored: string[];
}

/** Input of `Memory.trackRecall`: results an agent's own retrieval surfaced, to learn from. */
export interface TrackRecallInput {
  /** What the retrieval was asked (hashed unless `usage_store_queries = true`). */
  query: string;
  /** The keys it surfaced, best first. */
  keys: string[];
  namespace?: string;
  /** Default `tracked`; the memory context says `context`. */
  source?: UsageSource;
}

/** Options of `Memory.snooze`: exactly one of `until` and `forMs`. */
export interface SnoozeOptions {
  namespace?: string;
  /** RFC 3339 or `YYYY-MM-DD`: the instant the entry comes back. */
  until?: string;
  /** For this many milliseconds from now. */
  forMs?: number;
}

/** Options of `Memory.usage`. */
export interface UsageOptions {
  namespace?: string;
  /** Only these keys (default: every entry with usage, most used first). */
  keys?: string[];
  /** Also compute pin and snooze candidates. */
  candidates?: boolean;
  /** At most this many entries (default 50, at most 1,000). */
  limit?: number;
}

/** One entry's line of `Memory.usage`. */
export interface EntryUsage {
  key: string;
  stats: UsageStats;
  pinned: boolean;
  snoozedUntil?: string;
}

/** What `Memory.usage` returns. */
export interface UsageReport {
  namespace: string;
  entries: EntryUsage[];
  /** With `candidates`: used often, on many days and for many queries, not yet pinned. */
  pinCandidates?: EntryUsage[];
  /** With `candidates`: surfaced often, almost never used, not snoozed now. */
  snoozeCandidates?: EntryUsage[];
}

/** Options of `Memory.pruneUsage` (hygiene calls it). */
export interface PruneUsageOptions {
  /** Events before this instant go (RFC 3339); default `usage_event_retention_days` ago. */
  olderThan?: string;
  /** At most this many events stay, the newest; default `usage_event_max`. */
  keep?: number;
}

/** Sets or clears a person's marks on an entry without touching anything else (a write batch item). */
export interface EntryMark {
  namespace: string;
  key: string;
  /** Set when given. */
  pinned?: boolean;
  /** An instant sets it, `null` clears it, absent keeps it. */
  snoozedUntil?: string | null;
}

/**
 * Usage storage (`capabilities.usage`); the facade computes, the driver stores. Deleting an
 * entry (forget, purge, bulk delete, a write batch's delete) removes its events and its record.
 */
export interface DriverUsage {
  /**
   * In one atomic step: appends `events`, then for each `(namespace, key)` they name that is a
   * stored entry reads the stored record, calls `update` with it and that key's events (in
   * order) and stores what it returns. Events of other keys are appended all the same (no record).
   */
  record(
    events: readonly UsageEvent[],
    update: (current: UsageRecord | undefined, events: readonly UsageEvent[]) => UsageRecord,
  ): Promise<void>;
  /**
   * Optional, for the recall path: appends `surfaced` events (every one's kind is `surfaced`)
   * and may bring their keys' records up to date later, computed as `applyUsageEvents` of
   * `@memory/core` computes them (the `update` the facade gives `record`), provided every
   * `read`, `scan`, `put` and `prune` sees them applied. Surfacing only counts (`surfaced`,
   * `lastSurfacedAt`), so applying it later gives the record `record` would have given. The
   * facade's recorder uses it when present: a recall then costs the store one row instead of an
   * event row and a record write per result (the SQLite driver, docs/usage.md).
   */
  surface?(events: readonly UsageEvent[]): Promise<void>;
  /** The events of one recall, in the order they were appended. */
  events(namespace: string, recallId: string): Promise<UsageEvent[]>;
  /** Stored records of `keys`, position by position. */
  read(namespace: string, keys: readonly string[]): Promise<(UsageRecord | undefined)[]>;
  /**
   * Up to `limit` records of `namespace` (every namespace when undefined) with keys after
   * `after`, ordered by namespace then key (export pages through it).
   */
  scan(
    namespace: string | undefined,
    after: EntryMarkCursor | undefined,
    limit: number,
  ): Promise<UsageRecord[]>;
  /** Stores records as given, replacing stored ones (import); records of absent entries are not stored. */
  put(records: readonly UsageRecord[]): Promise<void>;
  /** Deletes events before `olderThan`, then the oldest beyond `keep`; returns how many went. */
  prune(olderThan: string, keep: number): Promise<number>;
  /** How many events are stored. */
  countEvents(): Promise<number>;
}

/** Where a `DriverUsage.scan` page continues: after this `(namespace, key)`. */
export interface EntryMarkCursor {
  namespace: string;
  key: string;
}
