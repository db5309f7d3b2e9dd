import { validateConflictRecord, validateSupersessionRecord } from "./decision-records.js";
import { InvalidInputError } from "./errors.js";
import {
  checkIdentifier,
  checkText,
  checkWellFormed,
  describe,
  nullField,
  optional,
  utf8Length,
} from "./field-checks.js";
import { parseVersionKey } from "./key-versions.js";
import { normalizeTimestamp } from "./timestamps.js";
import type { ConflictRecord, SupersessionRecord } from "./types/conflict-decision.js";
import {
  type Category,
  DEFAULT_NAMESPACE,
  type EntryFilter,
  type ImportEntry,
  type StoreInput,
  type UsageRecordExport,
} from "./types/memory-entry.js";
import { validatePinned, validateUsageExport } from "./usage-validation.js";

// The input policy (docs/input-rules.md) lives here, once, so every backend and every channel
// (library, HTTP, MCP, CLI, import) refuses and normalizes exactly the same inputs. The shared
// text checks are in field-checks.ts, the timestamp grammar in timestamps.ts.

export { normalizeTimestamp, nowIso } from "./timestamps.js";

/** Largest accepted content, in UTF-16 code units (about 4 MiB of ASCII). */
export const MAX_CONTENT_LENGTH = 4 * 1024 * 1024;
/** Largest accepted key, in characters (UTF-16 code units). */
export const MAX_KEY_LENGTH = 1024;
/**
 * Largest accepted key in UTF-8 bytes. PostgreSQL's unique btree index on (namespace, key)
 * holds at most 2,704 bytes per row: a 256-character namespace is at most 768 bytes, which
 * leaves room for 1,536. Every key of up to 512 characters fits, whatever its script.
 */
export const MAX_KEY_BYTES = 1536;
/** Largest accepted namespace, in characters (UTF-16 code units). */
export const MAX_NAMESPACE_LENGTH = 256;
/** Largest accepted session id, in characters. */
export const MAX_SESSION_ID_LENGTH = 256;
/**
 * Custom categories: letters, digits, `-`, `_`, at most 64 characters. Some backends turn them
 * into file names, so nothing else (no `/`, `.`, spaces) is allowed.
 */
export const CUSTOM_CATEGORY_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
/** @deprecated Categories only; namespaces are any text (see {@link validateNamespace}). */
export const NAME_PATTERN = CUSTOM_CATEGORY_PATTERN;

const BUILT_IN = new Set(["core", "daily", "conversation"]);

/** True for `core`, `daily` and `conversation`. */
export function isBuiltInCategory(category: string): boolean {
  return BUILT_IN.has(category);
}

/**
 * Validates a key: 1 to 1,024 characters (and at most 1,536 UTF-8 bytes), not blank, no NUL,
 * no lone surrogates. Returns it unchanged: keys are compared exactly.
 */
export function validateKey(key: unknown, field = "key"): string {
  // A kept version's key is the key it versions plus a short suffix (key-versions.ts): the
  // limits apply to that key, so the version of a 1,024-character key stays reachable.
  const version = typeof key === "string" ? parseVersionKey(key) : undefined;
  if (version) {
    validateKey(version.key, field);
    return key as string;
  }
  // Control characters other than NUL stay allowed in keys, as they always were: refusing them
  // now would make stored entries unreachable by get and forget. The HTTP body forms carry them.
  const text = checkText(field, key, MAX_KEY_LENGTH);
  // Only long keys can exceed the byte limit (3 bytes per UTF-16 code unit at most).
  if (text.length > MAX_KEY_BYTES / 3) {
    const bytes = utf8Length(text);
    if (bytes > MAX_KEY_BYTES) {
      throw new InvalidInputError(
        `${field} is ${bytes} bytes long in UTF-8; the limit is ${MAX_KEY_BYTES} bytes (1,024 ASCII characters, 512 of any script). Use a shorter one.`,
      );
    }
  }
  return text;
}

/** Validates content; returns it unchanged (content is stored byte-for-byte). */
export function validateContent(content: unknown): string {
  return checkText("content", content, MAX_CONTENT_LENGTH);
}

/** Validates a category name (built-in, or custom matching {@link CUSTOM_CATEGORY_PATTERN}). */
export function validateCategory(category: unknown): Category {
  if (category === null) throw nullField("category");
  if (typeof category !== "string" || !CUSTOM_CATEGORY_PATTERN.test(category)) {
    throw new InvalidInputError(
      `category ${JSON.stringify(category)} is not valid: use core, daily, conversation, or a custom name of 1-64 letters, digits, "-" or "_".`,
    );
  }
  return category;
}

/**
 * Validates a namespace; `undefined` gives `"default"`. Any text of 1 to 256 characters that
 * is not blank and has no control characters or lone surrogates (emails, `tenant:project`,
 * non-ASCII names). Returned unchanged: namespaces are compared exactly, with no case folding,
 * trimming or Unicode normalization (`"Ä"` and `"A\u0308"` are two namespaces).
 */
export function validateNamespace(namespace: unknown): string {
  if (namespace === undefined) return DEFAULT_NAMESPACE;
  return checkIdentifier("namespace", namespace, MAX_NAMESPACE_LENGTH);
}

/**
 * Validates a session id: 1 to 256 characters, no NUL, no lone surrogates. Like keys (and
 * unlike namespaces) it may hold other control characters, as it always could.
 */
export function validateSessionId(sessionId: unknown): string {
  return checkText("sessionId", sessionId, MAX_SESSION_ID_LENGTH);
}

/**
 * Validates a recall query: a string without lone surrogates or NUL (neither can match stored
 * text). Empty and blank queries are valid (they mean "most recent entries").
 */
export function validateQuery(query: unknown): string {
  if (query === null) throw nullField("query");
  if (typeof query !== "string") {
    throw new InvalidInputError(`query must be a string, got ${describe(query)}.`);
  }
  if (query.includes("\u0000")) {
    throw new InvalidInputError("query contains a NUL character (\\u0000); remove it.");
  }
  checkWellFormed("query", query);
  return query;
}

/** Validates an importance in 0..1. */
export function validateImportance(importance: unknown): number {
  if (importance === null) throw nullField("importance");
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
  if (embedding === null) throw nullField("embedding");
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
    category: input.category === undefined ? "core" : validateCategory(input.category),
    namespace: validateNamespace(input.namespace),
    sessionId: optional(input.sessionId, validateSessionId),
    importance: optional(input.importance, validateImportance),
    embedding: optional(input.embedding, (value) => validateEmbedding(value)),
  };
}

/** An import entry with defaults applied and timestamps normalized. */
export interface NormalizedImportEntry extends NormalizedStoreInput {
  id: string | undefined;
  createdAt: string | undefined;
  updatedAt: string | undefined;
  supersededBy: string | undefined;
  supersessionRecord: SupersessionRecord | undefined;
  conflictRecord: ConflictRecord | undefined;
  pinned: boolean | undefined;
  snoozedUntil: string | undefined;
  usage: UsageRecordExport | undefined;
}

/** Validates one import entry. */
export function normalizeImportEntry(entry: ImportEntry): NormalizedImportEntry {
  const base = normalizeStoreInput(entry);
  return {
    ...base,
    id: optional(entry.id, (value) => validateKey(value, "id")),
    createdAt: optional(entry.createdAt, (value) => normalizeTimestamp(value, "createdAt")),
    updatedAt: optional(entry.updatedAt, (value) => normalizeTimestamp(value, "updatedAt")),
    supersededBy: optional(entry.supersededBy, (value) => validateKey(value, "supersededBy")),
    // A record explains a mark: without `supersededBy` there is nothing to explain.
    supersessionRecord:
      entry.supersededBy === undefined
        ? undefined
        : optional(entry.supersessionRecord, validateSupersessionRecord),
    conflictRecord: optional(entry.conflictRecord, validateConflictRecord),
    pinned: optional(entry.pinned, validatePinned),
    snoozedUntil: optional(entry.snoozedUntil, (value) =>
      normalizeTimestamp(value, "snoozedUntil"),
    ),
    usage: optional(entry.usage, validateUsageExport),
  };
}

/** A filter with defaults applied and times normalized; identical on every backend. */
export interface NormalizedFilter {
  /** `undefined` only for export/purge across all namespaces. */
  namespace: string | undefined;
  sessionId: string | undefined;
  categories: Category[] | undefined;
  /**
   * Categories left out even though `categories` does not name them: recall sets it to the
   * reserved categories (`@memory/core` RESERVED_CATEGORIES, e.g. knowledge-graph `triple`
   * entries) so they never crowd out memories. Every stage applies it before its limit.
   */
  excludeCategories?: readonly Category[];
  /**
   * Recall only: entries snoozed until after this instant (`snoozedUntil > awakeAt`) are left
   * out. Every stage applies it before its limit.
   */
  awakeAt?: string;
  since: string | undefined;
  until: string | undefined;
  includeSuperseded: boolean;
}

function validateCategories(categories: unknown): Category[] {
  if (categories === null) throw nullField("categories");
  if (!Array.isArray(categories)) {
    throw new InvalidInputError(
      `categories must be an array of category names, got ${describe(categories)}.`,
    );
  }
  return categories.map(validateCategory);
}

function validateFlag(field: string, value: unknown): boolean {
  if (value === null) throw nullField(field);
  if (typeof value !== "boolean") {
    throw new InvalidInputError(`${field} must be true or false, got ${describe(value)}.`);
  }
  return value;
}

/**
 * Validates and normalizes a filter. `since`/`until` that do not parse, or `since >= until`,
 * are an `InvalidInputError`. `allNamespacesByDefault` is true for `export`.
 */
export function normalizeFilter(
  filter: EntryFilter = {},
  defaults: { allNamespacesByDefault?: boolean; includeSupersededByDefault?: boolean } = {},
): NormalizedFilter {
  const since = optional(filter.since, (value) => normalizeTimestamp(value, "since"));
  const until = optional(filter.until, (value) => normalizeTimestamp(value, "until"));
  if (since !== undefined && until !== undefined && since >= until) {
    throw new InvalidInputError(`since (${since}) must be earlier than until (${until}).`);
  }
  const categories = optional(filter.categories, validateCategories);
  const includeSuperseded = optional(filter.includeSuperseded, (value) =>
    validateFlag("includeSuperseded", value),
  );
  return {
    namespace:
      filter.namespace === undefined && defaults.allNamespacesByDefault
        ? undefined
        : validateNamespace(filter.namespace),
    sessionId: optional(filter.sessionId, validateSessionId),
    categories: categories && categories.length > 0 ? categories : undefined,
    since,
    until,
    includeSuperseded: includeSuperseded ?? defaults.includeSupersededByDefault ?? false,
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
