import { type Memory, type MemoryEntry, UnsupportedOperationError } from "@memory/api";

/**
 * The writes only a collection's indexer makes: reading fragments with their embeddings (to keep
 * them for identical text after an edit or a rename) and deleting fragments, which `forget`
 * refuses to everyone else. Not part of `Memory`: the facade answers it under this symbol.
 */
export const COLLECTION_WRITER = Symbol.for("@memory/core.collectionWriter");

export interface CollectionWriter {
  /** Fragments by key, with their stored embeddings, position by position. */
  read(namespace: string, keys: readonly string[]): Promise<(MemoryEntry | undefined)[]>;
  /** Deletes fragments (collection keys only); returns how many existed. */
  remove(namespace: string, keys: readonly string[]): Promise<number>;
}

interface WithCollectionWriter {
  [COLLECTION_WRITER](): CollectionWriter;
}

/** The collection writer of a facade-backed memory; a typed error for any other memory. */
export function collectionWriterOf(memory: Memory): CollectionWriter {
  const writer = (memory as Partial<WithCollectionWriter>)[COLLECTION_WRITER];
  if (typeof writer !== "function") {
    throw new UnsupportedOperationError(
      `The ${memory.name} memory cannot hold collections: open a sqlite, postgres or markdown store (backend in memory.toml) to index notes.`,
    );
  }
  return writer.call(memory);
}
