import { InvalidInputError } from "./errors.js";
import type { DeleteFilter, Lease } from "./types/lifecycle.js";
import { normalizeTimestamp, validateCategory, validateNamespace } from "./validation.js";

/** Longest lease name, lease holder or job name, in characters. */
export const MAX_LEASE_NAME_LENGTH = 256;
/** Longest lease: one day. A job that runs longer extends its lease (acquire again). */
export const MAX_LEASE_TTL_MS = 86_400_000;
/** Largest job state, as JSON text (UTF-16 code units). */
export const MAX_JOB_STATE_LENGTH = 1024 * 1024;

/** A {@link DeleteFilter} with every field checked; `namespace` undefined means every namespace. */
export interface NormalizedDeleteFilter {
  namespace: string | undefined;
  categories: string[] | undefined;
  olderThan: string | undefined;
  superseded: boolean | undefined;
  /** 0 when no floor was asked for. */
  keepNewest: number;
  dryRun: boolean;
  /** Present (true) only when asked: pinned entries are kept. */
  keepPinned?: boolean;
}

function describe(value: unknown): string {
  return value === null ? "null" : Array.isArray(value) ? "array" : typeof value;
}

function optionalBoolean(field: string, value: unknown): boolean | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "boolean")
    throw new InvalidInputError(`${field} must be true or false, got ${describe(value)}.`);
  return value;
}

/** Checks a bulk-delete filter: consistent fields, valid names, a strict RFC 3339 `olderThan`. */
export function normalizeDeleteFilter(filter: DeleteFilter): NormalizedDeleteFilter {
  if (filter === null || typeof filter !== "object" || Array.isArray(filter)) {
    throw new InvalidInputError(
      `deleteEntries needs a filter object, got ${describe(filter)}; pass {} to target the default namespace.`,
    );
  }
  const allNamespaces = optionalBoolean("allNamespaces", filter.allNamespaces) ?? false;
  if (allNamespaces && filter.namespace !== undefined) {
    throw new InvalidInputError(
      "namespace and allNamespaces were both given: pass namespace for one namespace, or allNamespaces: true for every namespace, not both.",
    );
  }
  let categories: string[] | undefined;
  if (filter.categories !== undefined) {
    if (!Array.isArray(filter.categories)) {
      throw new InvalidInputError(
        `categories must be an array of category names, got ${describe(filter.categories)}.`,
      );
    }
    if (filter.categories.length === 0) {
      throw new InvalidInputError(
        "categories is an empty array, which would match nothing: leave it out to match every category, or name at least one.",
      );
    }
    categories = [...new Set(filter.categories.map((category) => validateCategory(category)))];
  }
  let keepNewest = 0;
  if (filter.keepNewest !== undefined) {
    if (
      typeof filter.keepNewest !== "number" ||
      !Number.isSafeInteger(filter.keepNewest) ||
      filter.keepNewest < 0
    ) {
      throw new InvalidInputError(
        `keepNewest must be an integer >= 0 (entries kept per namespace and category), got ${JSON.stringify(filter.keepNewest) ?? describe(filter.keepNewest)}.`,
      );
    }
    keepNewest = filter.keepNewest;
  }
  return {
    namespace: allNamespaces ? undefined : validateNamespace(filter.namespace),
    categories,
    olderThan:
      filter.olderThan === undefined
        ? undefined
        : normalizeTimestamp(filter.olderThan, "olderThan"),
    superseded: optionalBoolean("superseded", filter.superseded),
    keepNewest,
    dryRun: optionalBoolean("dryRun", filter.dryRun) ?? false,
    ...(optionalBoolean("keepPinned", filter.keepPinned) ? { keepPinned: true } : {}),
  };
}

/** Validates a lease name, lease holder or job name: 1 to 256 characters, no NUL, well-formed. */
export function validateLeaseName(value: unknown, field = "lease name"): string {
  if (typeof value !== "string") {
    throw new InvalidInputError(`${field} must be a string, got ${describe(value)}.`);
  }
  if (value.length === 0 || value.length > MAX_LEASE_NAME_LENGTH) {
    throw new InvalidInputError(
      `${field} is ${value.length} characters long; use 1 to ${MAX_LEASE_NAME_LENGTH} characters.`,
    );
  }
  if (value.includes("\u0000")) {
    throw new InvalidInputError(`${field} contains a NUL character (\\u0000); remove it.`);
  }
  if (!value.isWellFormed()) {
    throw new InvalidInputError(
      `${field} contains a lone UTF-16 surrogate and cannot be stored as UTF-8; fix the text encoding.`,
    );
  }
  return value;
}

/** Validates a lease duration: an integer number of milliseconds, 1 to 86,400,000 (one day). */
export function validateLeaseTtl(ttlMs: unknown): number {
  if (
    typeof ttlMs !== "number" ||
    !Number.isSafeInteger(ttlMs) ||
    ttlMs < 1 ||
    ttlMs > MAX_LEASE_TTL_MS
  ) {
    throw new InvalidInputError(
      `ttlMs must be an integer from 1 to ${MAX_LEASE_TTL_MS} (one day), got ${JSON.stringify(ttlMs) ?? describe(ttlMs)}; a longer job acquires again before its lease expires to extend it.`,
    );
  }
  return ttlMs;
}

/** Checks a lease passed back to `releaseLease`. */
export function validateLease(lease: unknown): Lease {
  if (lease === null || typeof lease !== "object") {
    throw new InvalidInputError(
      `releaseLease needs the lease that acquireLease returned, got ${describe(lease)}.`,
    );
  }
  const { name, holder, token, expiresAt } = lease as Partial<Lease>;
  if (typeof token !== "number" || !Number.isSafeInteger(token) || token < 1) {
    throw new InvalidInputError(
      `lease token must be a positive integer (the token acquireLease returned), got ${JSON.stringify(token) ?? describe(token)}.`,
    );
  }
  return {
    name: validateLeaseName(name),
    holder: validateLeaseName(holder, "lease holder"),
    token,
    expiresAt: typeof expiresAt === "string" ? expiresAt : "",
  };
}

/**
 * Checks a job state and returns it as JSON text: a plain object, serializable (no cycles, no
 * BigInt), at most 1 MiB. What JSON drops (undefined fields, functions) is not kept.
 */
export function serializeJobState(state: unknown): string {
  if (state === null || typeof state !== "object" || Array.isArray(state)) {
    throw new InvalidInputError(
      `job state must be a JSON object (e.g. { lastRunAt, lastReport }), got ${describe(state)}.`,
    );
  }
  let text: string;
  try {
    text = JSON.stringify(state);
  } catch (error) {
    throw new InvalidInputError(
      `job state is not JSON-serializable (${error instanceof Error ? error.message : String(error)}); remove cycles and BigInt values.`,
      { cause: error },
    );
  }
  if (text.length > MAX_JOB_STATE_LENGTH) {
    throw new InvalidInputError(
      `job state is ${text.length} characters as JSON; the limit is ${MAX_JOB_STATE_LENGTH}. Keep a summary, not the full history.`,
    );
  }
  return text;
}

/** The lease as returned to callers, from stored fields (expiry in epoch milliseconds). */
export function leaseFromRow(row: {
  name: string;
  holder: string;
  token: number | string | bigint;
  expiresAtMs: number | string | bigint;
}): Lease {
  return {
    name: row.name,
    holder: row.holder,
    token: Number(row.token),
    expiresAt: new Date(Number(row.expiresAtMs)).toISOString(),
  };
}
