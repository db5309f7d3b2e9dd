import type { IndexedEntry, MemoryEntry } from "@memory/api";
import { decodeVectorText } from "./sql.js";

/** The entry columns every read selects, from alias `m`. */
export const ENTRY_COLUMNS =
  "m.id, m.namespace, m.key, m.content, m.category, m.session_id, m.importance, m.superseded_by, m.supersession_record, m.conflict_record, m.created_at, m.updated_at, m.pinned, m.snoozed_until";

/** The entry columns plus its index terms (what the search stages return). */
export const INDEXED_COLUMNS = `${ENTRY_COLUMNS}, m.search_terms`;

export interface EntryRow {
  id: string;
  namespace: string;
  key: string;
  content: string;
  category: string;
  session_id: string | null;
  importance: number | null;
  superseded_by: string | null;
  /** JSON text (schema 6). */
  supersession_record: string | null;
  conflict_record: string | null;
  created_at: Date;
  updated_at: Date;
  /** Schema 9: a person's marks. */
  pinned: boolean;
  snoozed_until: Date | null;
  embedding?: string | null;
}

/** A database row as a `MemoryEntry`; timestamps in the fixed `toISOString()` format. */
export function rowToEntry(row: EntryRow): MemoryEntry {
  const entry: MemoryEntry = {
    id: row.id,
    key: row.key,
    content: row.content,
    category: row.category,
    namespace: row.namespace,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
  if (row.session_id !== null) entry.sessionId = row.session_id;
  if (row.importance !== null) entry.importance = row.importance;
  if (row.superseded_by !== null) entry.supersededBy = row.superseded_by;
  if (row.supersession_record !== null)
    entry.supersessionRecord = JSON.parse(row.supersession_record);
  if (row.conflict_record !== null) entry.conflictRecord = JSON.parse(row.conflict_record);
  // `pinned` is absent rather than false, as on every backend.
  if (row.pinned) entry.pinned = true;
  if (row.snoozed_until !== null) entry.snoozedUntil = row.snoozed_until.toISOString();
  if (typeof row.embedding === "string") entry.embedding = decodeVectorText(row.embedding);
  return entry;
}

export interface IndexedRow extends EntryRow {
  search_terms: string;
}

/** A row selected with {@link INDEXED_COLUMNS} as the engine's `IndexedEntry`. */
export function rowToIndexed(row: IndexedRow): IndexedEntry {
  return { entry: rowToEntry(row), terms: row.search_terms };
}
