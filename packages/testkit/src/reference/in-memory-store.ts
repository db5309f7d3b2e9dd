import type { MemoryEntry } from "@memory/api";

/** One stored row of the reference backend. */
export interface StoredRow {
  entry: MemoryEntry;
  /** The entry's embedding, kept apart so `get` does not return it unless asked. */
  vector?: number[];
}

/**
 * The shared state behind one or more `InMemoryMemory` instances: two instances over the same
 * store behave like two processes over one database (the concurrency group uses that).
 */
export class InMemoryStore {
  readonly rows = new Map<string, StoredRow>();
  /** Fingerprint of the provider that made the stored vectors. */
  fingerprint: string | undefined;
  /** Bumped on every write; instances use it to invalidate their hot caches. */
  version = 0;

  static id(namespace: string, key: string): string {
    return `${namespace}\u0000${key}`;
  }
}
