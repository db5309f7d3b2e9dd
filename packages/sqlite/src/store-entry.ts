import {
  MemoryClosedError,
  type MemoryEntry,
  normalizeStoreInput,
  nowIso,
  type StoreInput,
} from "@memory/api";
import { withBusyRetry } from "./busy-retry.js";
import { givenVector } from "./embeddings/given-vector.js";
import { upsertEntry } from "./entry-writer.js";
import type { Opened } from "./opened-store.js";
import { toEntry } from "./row-mapping.js";

/** Stores one entry, embedding it now, or later through the queue with `deferEmbedding`. */
export async function storeEntry(opened: Opened, input: StoreInput): Promise<MemoryEntry> {
  const entry = normalizeStoreInput(input);
  let vector: ArrayLike<number> | undefined = givenVector(opened, entry.embedding);
  const { embedder } = opened;
  if (!vector && embedder.usable && !opened.options.deferEmbedding) {
    try {
      [vector] = await embedder.embed([entry.content], "document");
    } catch (error) {
      // The write must not be lost: stored without a vector, counted as pending.
      opened.queue.lastError = error;
    }
    if (opened.isClosed()) throw new MemoryClosedError("sqlite");
  }
  const row = await withBusyRetry(() =>
    opened.connection.db
      .transaction(() => {
        const stored = upsertEntry(opened.statements, entry, {
          updatedAt: nowIso(),
          language: opened.options.retrieval.textLanguage,
        });
        if (vector)
          opened.vectors.write(stored.doc_id, stored.namespace, stored.content_hash, vector);
        return stored;
      })
      .immediate(),
  );
  opened.invalidate(row.namespace);
  if (!vector && embedder.usable && opened.options.deferEmbedding) {
    // The row is the job: the worker reads it back from the database (memory stays bounded).
    opened.queue.signal();
  }
  return toEntry(row);
}
