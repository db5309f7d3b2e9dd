import type { MemoryEntry, WriteBatch, WriteResult } from "@memory/api";
import type { MarkdownTree } from "./markdown-tree.js";
import type { WrittenVectors } from "./tree-state.js";
import type { WritePlan } from "./write-plan.js";

export const identity = (namespace: string, key: string) => `${namespace}\u0000${key}`;

/** What a planned batch returns, and the vectors its index sync stores. */
export interface PlannedBatch {
  result: WriteResult;
  written: WrittenVectors;
}

/**
 * Plans a driver write batch against the tree as it is now (called under the tree lock, again
 * on every compare-and-swap retry): upserts keep the stored `id` and `createdAt` of an existing
 * key unless told otherwise, then supersessions, then deletes, all into ONE write plan.
 */
export function planBatch(tree: MarkdownTree, batch: WriteBatch, write: WritePlan): PlannedBatch {
  const result: WriteResult = { upserted: [], superseded: [], deleted: [], refused: [] };
  const vectors = new Map<string, ArrayLike<number>>();
  const current = (namespace: string, key: string): MemoryEntry | undefined =>
    write.puts.get(identity(namespace, key)) ?? tree.entries(namespace).get(key)?.entry;
  // Built only for imports that give ids: which (namespace, key) holds each id.
  let owners: Map<string, string> | undefined;
  for (const [index, upsert] of batch.upserts.entries()) {
    const { namespace, key } = upsert.entry;
    const id = identity(namespace, key);
    const existing = current(namespace, key);
    if (batch.refuseConflictingIds && upsert.replaceId) {
      owners ??= new Map(
        [...tree.allEntries()].map((row) => [
          row.entry.id,
          identity(row.entry.namespace, row.entry.key),
        ]),
      );
      const owner = owners.get(upsert.entry.id);
      if (owner !== undefined && owner !== id) {
        result.upserted.push(undefined);
        result.refused.push({
          index,
          code: "CONFLICT",
          message: `id ${upsert.entry.id} already belongs to another entry; import it without an id, or under that entry's key.`,
        });
        continue;
      }
      if (existing) owners.delete(existing.id);
      owners.set(upsert.entry.id, id);
    }
    const entry: MemoryEntry = {
      ...upsert.entry,
      id: existing && !upsert.replaceId ? existing.id : upsert.entry.id,
      createdAt: existing && !upsert.replaceCreatedAt ? existing.createdAt : upsert.entry.createdAt,
    };
    // Re-inserted, so a key written twice in one batch lands where its last write puts it.
    write.puts.delete(id);
    write.puts.set(id, entry);
    if (upsert.vector) vectors.set(id, upsert.vector);
    else vectors.delete(id);
    result.upserted.push({ ...entry });
  }
  for (const { namespace, key, supersededBy } of batch.supersessions) {
    const entry = current(namespace, key);
    if (entry) write.puts.set(identity(namespace, key), { ...entry, supersededBy });
    result.superseded.push(entry !== undefined);
  }
  for (const { namespace, key } of batch.deletes) {
    const id = identity(namespace, key);
    const planned = write.puts.delete(id);
    vectors.delete(id);
    const row = tree.entries(namespace).get(key);
    if (row) write.removes.set(id, row);
    result.deleted.push(planned || row !== undefined);
  }
  return { result, written: { vectors, fingerprint: batch.vectorFingerprint } };
}
