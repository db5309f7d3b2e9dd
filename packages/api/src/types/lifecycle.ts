/** Which entries a bulk delete removes. */
export interface DeleteFilter {
  /** One namespace (default "default"). Not allowed together with allNamespaces. */
  namespace?: string;
  /** Every namespace; keepNewest then applies per namespace. */
  allNamespaces?: boolean;
  /** Only these categories (non-empty when given). */
  categories?: string[];
  /** Only entries whose updatedAt is before this RFC 3339 time. */
  olderThan?: string;
  /** true: only superseded entries; false: only current ones; absent: both. */
  superseded?: boolean;
  /** Per (namespace, category): the newest N entries of the category (by updatedAt, then key), whatever the other conditions, are never deleted. The retention floor. */
  keepNewest?: number;
  /** Count what would be deleted; delete nothing. */
  dryRun?: boolean;
  /** Keep pinned entries (`Memory.pin`) whatever the other conditions say; hygiene sets it. */
  keepPinned?: boolean;
}

/** What a bulk delete removed (or would remove, with dryRun). */
export interface DeleteReport {
  deleted: number;
  /** Per category: entries matching the filter without keepNewest (eligible), and deleted. */
  byCategory: Record<string, { eligible: number; deleted: number }>;
}

/** A lease on a named job: at most one holder at a time across processes. */
export interface Lease {
  name: string;
  holder: string;
  /** Fencing token: strictly increases each time the lease changes hands (or is re-acquired after release/expiry). */
  token: number;
  expiresAt: string; // RFC 3339
}

/** Persistent state of a job, per store. JSON-serializable. */
export interface JobState {
  lastRunAt?: string;
  lastReport?: unknown;
  [field: string]: unknown;
}
