/**
 * The hot cache of recall results (DESIGN section 4): an LRU of recent results keyed by the
 * query and every option that changes the answer. Any write to a namespace invalidates that
 * namespace's entries, so a cached answer is never older than the last write.
 */
export class RecallCache<T> {
  readonly #entries = new Map<string, { namespace: string; value: T; expires: number }>();
  readonly #maxEntries: number;
  readonly #ttlMs: number;

  /** Defaults: 256 entries, 5-minute TTL. `maxEntries: 0` disables the cache. */
  constructor(options: { maxEntries?: number; ttlMs?: number } = {}) {
    this.#maxEntries = options.maxEntries ?? 256;
    this.#ttlMs = options.ttlMs ?? 5 * 60_000;
  }

  /** A stable key for a query and its options (object key order does not matter). */
  static key(query: string, options: Record<string, unknown>): string {
    const sorted = Object.keys(options)
      .filter((name) => options[name] !== undefined && name !== "signal")
      .sort()
      .map((name) => [name, options[name]]);
    return JSON.stringify([query, sorted]);
  }

  get(key: string, now: number = Date.now()): T | undefined {
    const hit = this.#entries.get(key);
    if (!hit) return undefined;
    if (hit.expires <= now) {
      this.#entries.delete(key);
      return undefined;
    }
    // Re-insert to mark as most recently used (Map keeps insertion order).
    this.#entries.delete(key);
    this.#entries.set(key, hit);
    return hit.value;
  }

  set(key: string, namespace: string, value: T, now: number = Date.now()): void {
    if (this.#maxEntries <= 0) return;
    this.#entries.delete(key);
    this.#entries.set(key, { namespace, value, expires: now + this.#ttlMs });
    while (this.#entries.size > this.#maxEntries) {
      const oldest = this.#entries.keys().next().value as string;
      this.#entries.delete(oldest);
    }
  }

  /** Drops the entries of one namespace, or everything when no namespace is given. */
  invalidate(namespace?: string): void {
    if (namespace === undefined) {
      this.#entries.clear();
      return;
    }
    for (const [key, entry] of this.#entries)
      if (entry.namespace === namespace) this.#entries.delete(key);
  }

  get size(): number {
    return this.#entries.size;
  }
}
