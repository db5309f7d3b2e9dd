import { InvalidInputError } from "./errors.js";
import {
  type Category,
  DEFAULT_NAMESPACE,
  type EntryFilter,
  type ImportEntry,
  type StoreInput,
} from "./types/memory-entry.js";

/** Largest accepted content, in UTF-16 code units (about 4 MiB of ASCII). */
export const MAX_CONTENT_LENGTH = 4 * 1024 * 1024;
/** Largest accepted key, in characters. */
export const MAX_KEY_LENGTH = 512;
/** Largest accepted session id, in characters. */
export const MAX_SESSION_ID_LENGTH = 256;
/**
 * Custom categories and namespaces: letters, digits, `-`, `_`, at most 64 characters. Some
 * backends turn them into file names, so nothing else (no `/`, `.`, spaces) is allowed.
 */
export const NAME_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
export const CUSTOM_CATEGORY_PATTERN = NAME_PATTERN;

const BUILT_IN = new Set(["core", "daily", "conversation"]);

/** True for `core`, `daily` and `conversation`. */
export function isBuiltInCategory(category: string): boolean {
  return BUILT_IN.has(category);
}

function checkText(field: string, value: unknown, maxLength: number): string {
  if (typeof value !== "string") {
    throw new InvalidInputError(`${field} must be a string, got ${typeof value}.`);
  }
  if (value.length === 0 || value.trim().length === 0) {
    throw new InvalidInputError(`${field} is empty: pass at least one non-space character.`);
  }
  if (value.length > maxLength) {
    throw new InvalidInputError(
      `${field} is ${value.length} characters long; the limit is ${maxLength}. Split it into several entries.`,
    );
  }
  if (value.includes("\u0000")) {
    throw new InvalidInputError(`${field} contains a NUL character (\\u0000); remove it.`);
  }
  if (!value.isWellFormed()) {
    throw new InvalidInputError(
      `${field} contains a lone UTF-16 surrogate and cannot be stored as UTF-8; fix the text encoding (String.prototype.toWellFormed).`,
    );
  }
  return value;
}

/** Validates a key; returns it unchanged. */
export function validateKey(key: unknown): string {
  return checkText("key", key, MAX_KEY_LENGTH);
}

/** Validates content; returns it unchanged (content is stored byte-for-byte). */
export function validateContent(content: unknown): string {
  return checkText("content", content, MAX_CONTENT_LENGTH);
}

/** Validates a category name (built-in, or custom matching {@link CUSTOM_CATEGORY_PATTERN}). */
export function validateCategory(category: unknown): Category {
  if (typeof category !== "string" || !NAME_PATTERN.test(category)) {
    throw new InvalidInputError(
      `category ${JSON.stringify(category)} is not valid: use core, daily, conversation, or a custom name of 1-64 letters, digits, "-" or "_".`,
    );
  }
  return category;
}

/** Validates a namespace; `undefined` gives `"default"`. */
export function validateNamespace(namespace: unknown): string {
  if (namespace === undefined) return DEFAULT_NAMESPACE;
  if (typeof namespace !== "string" || !NAME_PATTERN.test(namespace)) {
    throw new InvalidInputError(
      `namespace ${JSON.stringify(namespace)} is not valid: use 1-64 letters, digits, "-" or "_".`,
    );
  }
  return namespace;
}

/** Validates a session id. */
export function validateSessionId(sessionId: unknown): string {
  return checkText("sessionId", sessionId, MAX_SESSION_ID_LENGTH);
}

/** Validates an importance in 0..1. */
export function validateImportance(importance: unknown): number {
  if (typeof importance !== "number" || !Number.isFinite(importance)) {
    throw new InvalidInputError(`importance must be a number between 0 and 1, got ${importance}.`);
  }
  if (importance < 0 || importance > 1) {
    throw new InvalidInputError(`importance must be between 0 and 1, got ${importance}.`);
  }
  return importance;
}

/**
 * Validates an embedding's values and, when `dimensions` is given, its length. Returns the
 * vector unchanged.
 */
export function validateEmbedding(embedding: unknown, dimensions?: number): number[] {
  if (!Array.isArray(embedding) || embedding.length === 0) {
    throw new InvalidInputError("embedding must be a non-empty array of numbers.");
  }
  if (dimensions !== undefined && embedding.length !== dimensions) {
    throw new InvalidInputError(
      `embedding has ${embedding.length} dimensions but this store uses ${dimensions}; embed with the configured provider or run a reindex after changing embedding_dims.`,
    );
  }
  for (const value of embedding) {
    if (typeof value !== "number" || !Number.isFinite(value)) {
      throw new InvalidInputError("embedding contains a value that is not a finite number.");
    }
  }
  return embedding;
}

/** A store input with every default applied and every field checked. */
export interface NormalizedStoreInput {
  key: string;
  content: string;
  category: Category;
  namespace: string;
  sessionId: string | undefined;
  importance: number | undefined;
  embedding: number[] | undefined;
}

/** Validates a store input and applies defaults. Throws `InvalidInputError` naming the field. */
export function normalizeStoreInput(input: StoreInput): NormalizedStoreInput {
  if (typeof input !== "object" || input === null) {
    throw new InvalidInputError("store() needs an object like { key, content }.");
  }
  return {
    key: validateKey(input.key),
    content: validateContent(input.content),
    category: validateCategory(input.category ?? "core"),
    namespace: validateNamespace(input.namespace),
    sessionId: input.sessionId === undefined ? undefined : validateSessionId(input.sessionId),
    importance: input.importance === undefined ? undefined : validateImportance(input.importance),
    embedding: input.embedding === undefined ? undefined : validateEmbedding(input.embedding),
  };
}

/** An import entry with defaults applied and timestamps normalized. */
export interface NormalizedImportEntry extends NormalizedStoreInput {
  id: string | undefined;
  createdAt: string | undefined;
  updatedAt: string | undefined;
  supersededBy: string | undefined;
}

/** Validates one import entry. */
export function normalizeImportEntry(entry: ImportEntry): NormalizedImportEntry {
  const base = normalizeStoreInput(entry);
  return {
    ...base,
    id: entry.id === undefined ? undefined : validateKey(entry.id),
    createdAt:
      entry.createdAt === undefined ? undefined : normalizeTimestamp(entry.createdAt, "createdAt"),
    updatedAt:
      entry.updatedAt === undefined ? undefined : normalizeTimestamp(entry.updatedAt, "updatedAt"),
    supersededBy: entry.supersededBy === undefined ? undefined : validateKey(entry.supersededBy),
  };
}

/** The current time as a fixed-precision UTC ISO-8601 string (string order is time order). */
export function nowIso(): string {
  return new Date().toISOString();
}

// YYYY-MM-DD, optionally followed by [T ]HH:mm[:ss[.fraction]] and Z or a +-HH[:MM] offset.
const ISO_TIMESTAMP =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;
const STORAGE_FORMAT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** Milliseconds since the epoch of an ISO-8601 timestamp, or NaN when it is not one. */
function parseIsoTimestamp(text: string): number {
  const match = ISO_TIMESTAMP.exec(text);
  if (!match) return Number.NaN;
  const [, year, month, day, hour = "0", minute = "0", second = "0", fraction = "", zone] = match;
  const numbers = [year, month, day, hour, minute, second].map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const [y, mo, d, h, mi, s] = numbers;
  const date = new Date(0);
  date.setUTCFullYear(y, mo - 1, d);
  date.setUTCHours(h, mi, s, Number(fraction.padEnd(3, "0").slice(0, 3)));
  // Reject what Date would silently roll over (2026-02-30 -> March 2, 25:00 -> next day).
  if (
    mo < 1 ||
    mo > 12 ||
    date.getUTCDate() !== d ||
    date.getUTCMonth() !== mo - 1 ||
    h > 23 ||
    mi > 59 ||
    s > 59
  ) {
    return Number.NaN;
  }
  let offsetMinutes = 0;
  if (zone !== undefined && zone.toUpperCase() !== "Z") {
    const digits = zone.slice(1).replace(":", "");
    const offsetHours = Number(digits.slice(0, 2));
    const offsetMins = Number(digits.slice(2) || "0");
    if (offsetHours > 23 || offsetMins > 59) return Number.NaN;
    offsetMinutes = (zone.startsWith("-") ? -1 : 1) * (offsetHours * 60 + offsetMins);
  }
  return date.getTime() - offsetMinutes * 60_000;
}

/**
 * Parses an ISO-8601 timestamp (`2026-01-31`, `2026-01-31T12:00:00Z`, `2026-01-31 12:00:00.5+02:00`...)
 * and returns it in the fixed storage format `YYYY-MM-DDTHH:mm:ss.sssZ`. A time without an
 * offset is UTC (never the local time zone of whichever machine runs the code). Anything else,
 * including what `Date` would guess at ("hello 2020", "1", "2026-02-30") and years outside
 * 0000-9999 (which would break "string order is time order"), is an `InvalidInputError` naming
 * `field`.
 */
export function normalizeTimestamp(value: unknown, field = "timestamp"): string {
  const time = typeof value === "string" ? parseIsoTimestamp(value.trim()) : Number.NaN;
  const iso = Number.isNaN(time) ? "" : new Date(time).toISOString();
  if (!STORAGE_FORMAT.test(iso)) {
    throw new InvalidInputError(
      `${field} ${JSON.stringify(value)} is not a valid ISO-8601 time; use e.g. 2026-01-31T12:00:00Z.`,
    );
  }
  // Year 0000 parses in JavaScript but no SQL backend stores it (PostgreSQL has no year 0):
  // the accepted range is the same everywhere, 0001-01-01 to 9999-12-31.
  if (iso.startsWith("0000-")) {
    throw new InvalidInputError(
      `${field} ${JSON.stringify(value)} is out of range; times go from 0001-01-01T00:00:00Z to 9999-12-31T23:59:59.999Z.`,
    );
  }
  return iso;
}

/** A filter with defaults applied and times normalized; identical on every backend. */
export interface NormalizedFilter {
  /** `undefined` only for export/purge across all namespaces. */
  namespace: string | undefined;
  sessionId: string | undefined;
  categories: Category[] | undefined;
  since: string | undefined;
  until: string | undefined;
  includeSuperseded: boolean;
}

/**
 * Validates and normalizes a filter. `since`/`until` that do not parse, or `since >= until`,
 * are an `InvalidInputError`. `allNamespacesByDefault` is true for `export`.
 */
export function normalizeFilter(
  filter: EntryFilter = {},
  defaults: { allNamespacesByDefault?: boolean; includeSupersededByDefault?: boolean } = {},
): NormalizedFilter {
  const since = filter.since === undefined ? undefined : normalizeTimestamp(filter.since, "since");
  const until = filter.until === undefined ? undefined : normalizeTimestamp(filter.until, "until");
  if (since !== undefined && until !== undefined && since >= until) {
    throw new InvalidInputError(`since (${since}) must be earlier than until (${until}).`);
  }
  const categories = filter.categories?.map(validateCategory);
  return {
    namespace:
      filter.namespace === undefined && defaults.allNamespacesByDefault
        ? undefined
        : validateNamespace(filter.namespace),
    sessionId: filter.sessionId === undefined ? undefined : validateSessionId(filter.sessionId),
    categories: categories && categories.length > 0 ? categories : undefined,
    since,
    until,
    includeSuperseded: filter.includeSuperseded ?? defaults.includeSupersededByDefault ?? false,
  };
}

/** Validates a result limit: an integer >= 0 (0 returns nothing). */
export function validateLimit(limit: unknown, fallback: number, max = 10_000): number {
  if (limit === undefined) return fallback;
  if (typeof limit !== "number" || !Number.isInteger(limit) || limit < 0) {
    throw new InvalidInputError(`limit must be an integer >= 0, got ${limit}.`);
  }
  return Math.min(limit, max);
}
