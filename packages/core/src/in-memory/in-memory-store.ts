import type { MemoryEntry, Relation, UsageEvent, UsageRecord } from "@memory/api";

/** One stored row of the in-memory driver. */
export interface StoredRow {
  entry: MemoryEntry;
  /** The entry's embedding, kept apart so `get` does not return it unless asked. */
  vector?: number[];
  /** The content the vector was made from (the content-hash guard of deferred embedding). */
  vectorOf?: string;
}

/**
 * The shared state behind one or more in-memory drivers: two memories over the same store
 * behave like two processes over one database (the concurrency group uses that).
 */
export class InMemoryStore {
  readonly rows = new Map<string, StoredRow>();
  /** Fingerprint of the provider that made the stored vectors. */
  fingerprint: string | undefined;
  /** Bumped on every write; instances use it to invalidate their hot caches. */
  version = 0;
  /** Leases by name; a released lease stays (expired) so its token keeps counting. */
  readonly leases = new Map<string, { holder: string; token: number; expiresAtMs: number }>();
  /** Relations by `namespace NUL from NUL to NUL type`. */
  readonly relations = new Map<string, Relation>();
  /** Job states by job name, as JSON text (what a persistent backend would hold). */
  readonly jobStates = new Map<string, string>();
  /** Usage events, in the order they were appended. */
  usageEvents: UsageEvent[] = [];
  /** Usage records by `InMemoryStore.id(namespace, key)`. */
  readonly usageRecords = new Map<string, UsageRecord>();

  static id(namespace: string, key: string): string {
    return `${namespace}\u0000${key}`;
  }
}
