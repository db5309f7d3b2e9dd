import {
  InvalidInputError,
  validateEmbedding,
  type WriteBatch,
  type WriteResult,
} from "@memory/api";
import { applyMarks } from "./entry-marks.js";
import { upsertEntry } from "./entry-writer.js";
import type { Opened } from "./opened-store.js";
import { removeRelations, upsertRelation } from "./relation-rows.js";
import { recordText, toEntry } from "./row-mapping.js";

/**
 * Applies a write batch; runs inside the caller's IMMEDIATE transaction, so the whole batch
 * commits or none of it does. Batches of many entries (imports) index their new rows
 * set-based through the bulk-load gate. Not a nested savepoint per entry: around thousands of
 * upserts it made every batch slower as the table grew (60k rows: 10k rows/s nested against
 * 57k rows/s flat); SQLite undoes a failed statement by itself.
 */
export function applyWriteBatch(opened: Opened, batch: WriteBatch): WriteResult {
  const { db, bulkLoad } = opened.connection;
  const write = () => writeRows(opened, batch);
  return batch.upserts.length >= BULK_LOAD_MIN_UPSERTS ? bulkLoad.loadBatch(db, write) : write();
}

/**
 * Smaller batches (a store, with the version it keeps) index row by row through the triggers:
 * the set-based pass costs more than it saves for a handful of rows (measured: a two-entry batch
 * took about twice as long through the gate as row by row).
 */
const BULK_LOAD_MIN_UPSERTS = 16;

function writeRows(opened: Opened, batch: WriteBatch): WriteResult {
  const result: WriteResult = { upserted: [], superseded: [], deleted: [], refused: [] };
  const language = opened.options.retrieval.textLanguage;
  for (const [index, upsert] of batch.upserts.entries()) {
    const { entry } = upsert;
    try {
      const withVector = upsert.vector !== undefined && vectorAllowed(opened, upsert.vector);
      const input = {
        key: entry.key,
        content: entry.content,
        category: entry.category,
        namespace: entry.namespace,
        sessionId: entry.sessionId,
        importance: entry.importance,
        embedding: undefined,
      };
      const write = (id: string | undefined, insertId?: string) =>
        upsertEntry(opened.statements, input, {
          id,
          insertId,
          createdAt: upsert.replaceCreatedAt ? entry.createdAt : undefined,
          updatedAt: entry.updatedAt,
          supersededBy: entry.supersededBy,
          supersessionRecord: recordText(entry.supersessionRecord),
          conflictRecord: recordText(entry.conflictRecord),
          pinned: entry.pinned,
          snoozedUntil: entry.snoozedUntil,
          language,
        });
      const row = upsert.replaceId
        ? writeWithOwnId(opened, entry, write)
        : write(undefined, entry.id);
      if (withVector)
        opened.vectors.write(row.doc_id, row.namespace, row.content_hash, upsert.vector!);
      result.upserted.push(toEntry(row));
    } catch (error) {
      const refusal = refusalOf(error, entry.id);
      if (!batch.refuseInvalidEntries || !refusal) throw error;
      result.upserted.push(undefined);
      result.refused.push({ index, ...refusal });
    }
  }
  const supersede = opened.statements.get(
    "UPDATE memories SET superseded_by = ?, supersession_record = ? WHERE namespace = ? AND key = ?",
  );
  for (const { namespace, key, supersededBy, record } of batch.supersessions) {
    const why = supersededBy === null ? undefined : recordText(record);
    result.superseded.push(supersede.run(supersededBy, why ?? null, namespace, key).changes > 0);
  }
  if (batch.marks) result.marked = applyMarks(opened, batch.marks);
  if (batch.relations)
    result.related = batch.relations.map((upsert) => upsertRelation(opened.statements, upsert));
  if (batch.unrelations)
    result.unrelated = batch.unrelations.map((removal) =>
      removeRelations(opened.statements, removal),
    );
  // Edges and usage of deleted entries go with them (the triggers of schemas v9 and v10).
  const remove = opened.statements.get(
    "DELETE FROM memories WHERE namespace = ? AND key = ? RETURNING doc_id",
  );
  const removed: number[] = [];
  for (const { namespace, key } of batch.deletes) {
    const row = remove.get(namespace, key) as { doc_id: number } | undefined;
    if (row) removed.push(row.doc_id);
    result.deleted.push(row !== undefined);
  }
  opened.vectors.removed(removed);
  return result;
}

// Ids are unique per store, not per namespace.
const ID_OF_ANOTHER_ENTRY =
  "SELECT 1 FROM memories WHERE id = ? AND (namespace <> ? OR key <> ?) LIMIT 1";

/**
 * Upserts with the entry's own id, unless that id belongs to another (namespace, key): then the
 * entry is a copy (an export imported into another namespace) and keeps the id it has, or gets
 * one of its own. Checked only after the UNIQUE violation, so a normal import pays nothing.
 */
function writeWithOwnId<Row>(
  opened: Opened,
  entry: { id: string; namespace: string; key: string },
  write: (id: string | undefined) => Row,
): Row {
  try {
    return write(entry.id);
  } catch (error) {
    const taken = opened.statements
      .get(ID_OF_ANOTHER_ENTRY)
      .get(entry.id, entry.namespace, entry.key);
    if (!taken) throw error;
    return write(undefined);
  }
}

/** Why the store refuses one entry of an import (the rest goes on), or undefined. */
function refusalOf(error: unknown, id: string): { code: string; message: string } | undefined {
  if (InvalidInputError.isInstance(error)) return { code: error.code, message: error.message };
  const code = (error as { code?: unknown } | null)?.code;
  // Another constraint of the entry itself (the store is fine): as the import always did.
  if (typeof code === "string" && code.startsWith("SQLITE_CONSTRAINT")) {
    return {
      code: "CONFLICT",
      message: `entry ${id} was refused by the store: ${String((error as Error).message)}`,
    };
  }
  return undefined;
}

/**
 * Whether a vector may be written. With a provider, the facade sends vectors only in its vector
 * space, whose size the store recorded when it adopted the provider. Without one (vectors given
 * by the caller), only of the size already stored, the first one fixing it.
 */
function vectorAllowed(opened: Opened, vector: ArrayLike<number>): boolean {
  if (opened.provider) return true;
  const stored = opened.statements
    .get("SELECT value FROM meta WHERE key = 'embedding_dims'")
    .get() as { value: string } | undefined;
  if (stored === undefined) {
    opened.statements
      .get("INSERT OR REPLACE INTO meta (key, value) VALUES ('embedding_dims', ?)")
      .run(String(vector.length));
    opened.vectors.reset(vector.length);
    return true;
  }
  validateEmbedding(Array.from(vector), Number(stored.value));
  return true;
}
