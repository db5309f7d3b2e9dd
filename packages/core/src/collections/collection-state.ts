import type { JobState } from "@memory/api";

// Where collections live in a store, on every backend: in its job state (the store's small JSON
// documents, seen by every process that opens the store). The definitions are one document;
// what was indexed (per note: content hash, title, fragment lines) is spread over
// MANIFEST_SHARDS documents per collection so that each stays far below the 1 MiB job-state
// limit (about 150 bytes a note: 16 shards hold some 100,000 notes).

/** The job state that holds the collections added with `memory collection add`. */
export const COLLECTIONS_JOB = "collections";
/** Manifest documents per collection. */
export const MANIFEST_SHARDS = 16;

/** A collection: a folder of notes indexed read-only beside memory. */
export interface CollectionDefinition {
  /** 1-64 letters, digits, `-`, `_`: also the category of its entries. */
  name: string;
  /** The folder, absolute and with symlinks resolved when the collection was defined. */
  path: string;
  /** Which files, relative to `path` (default `**\/*.md`). */
  pattern: string;
  /** The namespace its entries live in (default `default`). */
  namespace: string;
  /** A description per path prefix (`""` for the whole collection), shown with results. */
  context?: Record<string, string>;
  /** Where it was defined: memory.toml (`[collections.<name>]`) or `memory collection add`. */
  origin?: "config" | "added";
}

/** What the index holds for one note. */
export interface IndexedNote {
  /** SHA-256 of the file's bytes. */
  hash: string;
  /** Size and modification time when read: the same pair means unchanged, without reading. */
  size?: number;
  mtimeMs?: number;
  title: string;
  contentType: string;
  /** The fragments' line ranges (each one entry, keyed by `collectionKey`). */
  ranges: [number, number][];
}

/** The job-state access collections need (a `Memory`, or the facade's driver). */
export interface JobStateAccess {
  getJobState(job: string): Promise<JobState | null>;
  setJobState(job: string, state: JobState): Promise<void>;
}

/** The manifest document that holds `path` (FNV-1a of the path, so every process agrees). */
export function manifestShard(path: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < path.length; index++) {
    hash ^= path.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash % MANIFEST_SHARDS;
}

/** The job name of one manifest document of `collection`. */
export function manifestJob(collection: string, shard: number): string {
  return `collection-files:${collection}:${shard.toString(16)}`;
}

/** The stored definitions (without the configured ones), by name. */
export async function readStoredCollections(
  jobs: JobStateAccess,
): Promise<Record<string, CollectionDefinition>> {
  const state = await jobs.getJobState(COLLECTIONS_JOB);
  const stored = (state?.collections ?? {}) as Record<string, Omit<CollectionDefinition, "name">>;
  return Object.fromEntries(
    Object.entries(stored).map(([name, definition]) => [name, { ...definition, name }]),
  );
}

export async function writeStoredCollections(
  jobs: JobStateAccess,
  collections: Record<string, CollectionDefinition>,
): Promise<void> {
  const stored = Object.fromEntries(
    Object.entries(collections).map(([name, { name: _name, ...definition }]) => [name, definition]),
  );
  await jobs.setJobState(COLLECTIONS_JOB, { collections: stored });
}

/** One manifest document: indexed notes by path. */
export async function readManifestShard(
  jobs: JobStateAccess,
  collection: string,
  shard: number,
): Promise<Record<string, IndexedNote>> {
  const state = await jobs.getJobState(manifestJob(collection, shard));
  return (state?.notes ?? {}) as Record<string, IndexedNote>;
}

export async function writeManifestShard(
  jobs: JobStateAccess,
  collection: string,
  shard: number,
  notes: Record<string, IndexedNote>,
): Promise<void> {
  await jobs.setJobState(manifestJob(collection, shard), { notes });
}

/** Every indexed note of `collection`, by path. */
export async function readManifest(
  jobs: JobStateAccess,
  collection: string,
): Promise<Map<string, IndexedNote>> {
  const notes = new Map<string, IndexedNote>();
  for (let shard = 0; shard < MANIFEST_SHARDS; shard++)
    for (const [path, note] of Object.entries(await readManifestShard(jobs, collection, shard)))
      notes.set(path, note);
  return notes;
}

/** The description of the longest `context` prefix that `path` starts with. */
export function contextFor(definition: CollectionDefinition, path: string): string | undefined {
  let best: string | undefined;
  let length = -1;
  for (const [prefix, description] of Object.entries(definition.context ?? {})) {
    if (path.startsWith(prefix) && prefix.length > length) {
      best = description;
      length = prefix.length;
    }
  }
  return best;
}
