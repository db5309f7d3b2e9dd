import type {
  EntryMark,
  MemoryEntry,
  SupersessionRecord,
  WriteBatch,
  WriteResult,
} from "@memory/api";
import type { MarkdownTree } from "./markdown-tree.js";
import { publicEntry, withoutEdgesTo, withoutRelations, withRelation } from "./tree-relations.js";
import type { WrittenVectors } from "./tree-state.js";
import type { WritePlan } from "./write-plan.js";

export const identity = (namespace: string, key: string) => `${namespace}\u0000${key}`;

/** Who holds each id: the files' entries, then what the plan already writes. */
function idOwners(tree: MarkdownTree, write: WritePlan): Map<string, string> {
  const owners = new Map<string, string>();
  for (const row of tree.allEntries())
    owners.set(row.entry.id, identity(row.entry.namespace, row.entry.key));
  for (const [owner, entry] of write.puts) owners.set(entry.id, owner);
  return owners;
}

/** What a planned batch returns, and the vectors its index sync stores. */
export interface PlannedBatch {
  result: WriteResult;
  written: WrittenVectors;
}

/**
 * Plans a driver write batch against the tree as it is now (called under the tree lock, again
 * on every compare-and-swap retry): upserts keep the stored `id` and `createdAt` of an existing
 * key unless told otherwise (a given id of ANOTHER key marks a copy, which gets a new id), then
 * supersessions, marks, relations, unrelations, then deletes, all into ONE write plan.
 */
export function planBatch(tree: MarkdownTree, batch: WriteBatch, write: WritePlan): PlannedBatch {
  const result: WriteResult = { upserted: [], superseded: [], deleted: [], refused: [] };
  const vectors = new Map<string, ArrayLike<number>>();
  const current = (namespace: string, key: string): MemoryEntry | undefined =>
    write.puts.get(identity(namespace, key)) ?? tree.entries(namespace).get(key)?.entry;
  // Which (namespace, key) holds each id: built only when an upsert gives its own id.
  let owners: Map<string, string> | undefined;
  for (const upsert of batch.upserts) {
    const { namespace, key } = upsert.entry;
    const id = identity(namespace, key);
    const existing = current(namespace, key);
    let replaceId = upsert.replaceId === true;
    let copy = false;
    if (replaceId) {
      owners ??= idOwners(tree, write);
      const owner = owners.get(upsert.entry.id);
      // Ids are unique per store: an id of another entry marks a copy, which gets its own.
      copy = owner !== undefined && owner !== id;
      if (copy) replaceId = false;
    }
    const entry: MemoryEntry = {
      ...upsert.entry,
      id: existing && !replaceId ? existing.id : copy ? crypto.randomUUID() : upsert.entry.id,
      createdAt: existing && !upsert.replaceCreatedAt ? existing.createdAt : upsert.entry.createdAt,
    };
    // The same entry stored again keeps its outgoing edges (they live on its line), and a
    // person's marks unless the upsert sets them (an import carries them).
    if (existing?.relations) entry.relations = existing.relations;
    keepMarks(entry, existing);
    // Re-inserted, so a key written twice in one batch lands where its last write puts it.
    write.puts.delete(id);
    write.puts.set(id, entry);
    if (owners) {
      if (existing) owners.delete(existing.id);
      owners.set(entry.id, id);
    }
    if (upsert.vector) vectors.set(id, upsert.vector);
    else vectors.delete(id);
    result.upserted.push(publicEntry({ ...entry }));
  }
  for (const { namespace, key, supersededBy, record } of batch.supersessions) {
    const entry = current(namespace, key);
    if (entry)
      write.puts.set(identity(namespace, key), withSupersededBy(entry, supersededBy, record));
    result.superseded.push(entry !== undefined);
  }
  if (batch.marks) {
    result.marked = batch.marks.map((mark) => {
      const entry = current(mark.namespace, mark.key);
      if (!entry) return undefined;
      const marked = withMark(entry, mark);
      write.puts.set(identity(mark.namespace, mark.key), marked);
      return publicEntry({ ...marked });
    });
  }
  if (batch.relations) {
    result.related = batch.relations.map((upsert) => {
      const { namespace, from, to } = upsert.relation;
      const source = current(namespace, from);
      if (!source || !current(namespace, to)) return undefined;
      const { entry, stored } = withRelation(source, upsert);
      write.puts.set(identity(namespace, from), entry);
      return stored;
    });
  }
  if (batch.unrelations) {
    result.unrelated = batch.unrelations.map((removal) => {
      const source = current(removal.namespace, removal.from);
      if (!source) return 0;
      const { entry, removed } = withoutRelations(source, removal);
      if (removed > 0) write.puts.set(identity(removal.namespace, removal.from), entry);
      return removed;
    });
  }
  if (batch.deletes.length > 0) dropEdgesTo(tree, write, batch.deletes);
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

/**
 * An upsert leaves `pinned` and `snoozedUntil` undefined to keep what is stored; a defined value
 * replaces it (`pinned: false` unpins: the line then has no field at all).
 */
function keepMarks(entry: MemoryEntry, existing: MemoryEntry | undefined): void {
  if (entry.pinned === undefined && existing?.pinned) entry.pinned = true;
  if (entry.pinned === false) delete entry.pinned;
  if (entry.snoozedUntil === undefined && existing?.snoozedUntil !== undefined)
    entry.snoozedUntil = existing.snoozedUntil;
}

/**
 * The entry with a mark applied: only `pinned` and `snoozedUntil` change (not `updatedAt`), an
 * undefined field keeps its value, `snoozedUntil: null` clears it.
 */
function withMark(entry: MemoryEntry, mark: EntryMark): MemoryEntry {
  const { pinned, snoozedUntil, ...rest } = entry;
  const marked: MemoryEntry = rest;
  if (mark.pinned ?? pinned) marked.pinned = true;
  const until = mark.snoozedUntil === undefined ? snoozedUntil : mark.snoozedUntil;
  if (until !== null && until !== undefined) marked.snoozedUntil = until;
  return marked;
}

/** The entry marked superseded by `supersededBy`, or current again for `null` (no field at all). */
function withSupersededBy(
  entry: MemoryEntry,
  supersededBy: string | null,
  record: SupersessionRecord | undefined,
): MemoryEntry {
  const { supersededBy: _previous, supersessionRecord: _why, ...rest } = entry;
  if (supersededBy === null) return rest;
  return record ? { ...rest, supersededBy, supersessionRecord: record } : { ...rest, supersededBy };
}

/**
 * Deleting entries removes the edges other entries keep to them: those entries' lines are
 * rewritten without them (their `updatedAt` unchanged: the entry itself did not change).
 */
export function dropEdgesTo(
  tree: MarkdownTree,
  write: WritePlan,
  deleted: readonly { namespace: string; key: string }[],
): void {
  const byNamespace = new Map<string, Set<string>>();
  for (const { namespace, key } of deleted)
    byNamespace.set(namespace, (byNamespace.get(namespace) ?? new Set()).add(key));
  for (const [namespace, gone] of byNamespace) {
    const planned = [...write.puts.values()].filter((entry) => entry.namespace === namespace);
    const stored = [...tree.entries(namespace).values()]
      .map((row) => row.entry)
      .filter((entry) => !write.puts.has(identity(namespace, entry.key)));
    for (const entry of [...planned, ...stored]) {
      if (gone.has(entry.key)) continue;
      const kept = withoutEdgesTo(entry, gone);
      if (kept) write.puts.set(identity(namespace, entry.key), kept);
    }
  }
}
