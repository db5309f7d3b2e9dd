import { InvalidInputError } from "./errors.js";

// A collection (a folder of Markdown notes indexed read-only beside memory, docs/collections.md)
// stores each fragment of a note as an ordinary entry under a reserved key:
// `collection:<name>:<path>#L<startLine>-<endLine>`. The key alone says where the fragment comes
// from, so every backend returns `source` without storing anything new, and `store`/`forget`
// refuse keys of this form: the files are the truth, the index follows them.

/** What every collection fragment's key starts with. */
export const COLLECTION_KEY_PREFIX = "collection:";

/** A collection's name: also its entries' category (letters, digits, `-`, `_`; 1..64). */
export const COLLECTION_NAME_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

const RESERVED_NAMES = new Set(["core", "daily", "conversation"]);
const COLLECTION_KEY = /^collection:([A-Za-z0-9_-]{1,64}):([\s\S]+)#L([1-9][0-9]*)-([1-9][0-9]*)$/;

/** Where a collection fragment comes from, as its key says. */
export interface CollectionKeyParts {
  collection: string;
  /** The note, relative to the collection's root, with `/` separators. */
  path: string;
  startLine: number;
  endLine: number;
}

/** The key of a fragment of `path` (lines `startLine`..`endLine`, 1-based) in `collection`. */
export function collectionKey(parts: CollectionKeyParts): string {
  return `${COLLECTION_KEY_PREFIX}${parts.collection}:${parts.path}#L${parts.startLine}-${parts.endLine}`;
}

/** The parts of a collection fragment's key, or undefined for any other key. */
export function parseCollectionKey(key: string): CollectionKeyParts | undefined {
  const match = COLLECTION_KEY.exec(key);
  if (!match) return undefined;
  return {
    collection: match[1]!,
    path: match[2]!,
    startLine: Number(match[3]),
    endLine: Number(match[4]),
  };
}

/** True when `key` has the reserved collection form (`collection:<name>:...`). */
export function isCollectionKey(key: string): boolean {
  return key.startsWith(COLLECTION_KEY_PREFIX);
}

/**
 * Refuses a write or a deletion of a collection fragment through the ordinary API: the note is
 * the truth, so the message says which file to edit and what to run.
 */
export function assertNotCollectionKey(key: string, operation: string): void {
  if (!isCollectionKey(key)) return;
  const parts = parseCollectionKey(key);
  const where = parts
    ? `a fragment of ${parts.path} (lines ${parts.startLine}-${parts.endLine}) in collection "${parts.collection}"`
    : `reserved for collections ("${COLLECTION_KEY_PREFIX}<name>:...")`;
  const fix = parts
    ? `edit or delete that file in the collection's folder, then run \`memory collection sync ${parts.collection}\` (or remove the whole index with \`memory collection remove ${parts.collection}\`)`
    : 'choose a key that does not start with "collection:"';
  throw new InvalidInputError(
    `Cannot ${operation} ${JSON.stringify(key)}: it is ${where}, and collections are read-only; ${fix}.`,
    { details: { key, ...(parts ? { collection: parts.collection, path: parts.path } : {}) } },
  );
}

/** Validates a collection name: a custom category name, not a built-in one. */
export function validateCollectionName(name: unknown): string {
  if (typeof name !== "string" || !COLLECTION_NAME_PATTERN.test(name) || RESERVED_NAMES.has(name)) {
    throw new InvalidInputError(
      `collection name ${JSON.stringify(name)} is not valid: use 1-64 letters, digits, "-" or "_" (not core, daily or conversation); it is also the category of the collection's entries.`,
    );
  }
  return name;
}

/**
 * Validates recall's `collections` option: undefined or true (memory and every collection),
 * false (memory only) or a list of collection names (memory and those).
 */
export function validateCollectionsOption(value: unknown): boolean | string[] | undefined {
  if (value === undefined || typeof value === "boolean") return value;
  if (Array.isArray(value)) return value.map((name) => validateCollectionName(name));
  throw new InvalidInputError(
    `collections must be true (memory and every collection), false (memory only) or a list of collection names, got ${JSON.stringify(value)}.`,
  );
}
