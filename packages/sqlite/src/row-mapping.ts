import type { MemoryEntry } from "@memory/api";
import { blobToArray } from "./vectors/vector-codec.js";

/** The columns every entry query selects (alias `m`). */
export const ENTRY_COLUMNS =
  "m.doc_id, m.id, m.namespace, m.key, m.content, m.category, m.session_id, m.importance, m.superseded_by, m.supersession_record, m.conflict_record, m.content_hash, m.created_at, m.updated_at, m.pinned, m.snoozed_until";

export interface EntryRow {
  doc_id: number;
  id: string;
  namespace: string;
  key: string;
  content: string;
  category: string;
  session_id: string | null;
  importance: number | null;
  superseded_by: string | null;
  /** JSON text (schema v7); undefined in rows the writer built before reading them back. */
  supersession_record?: string | null;
  conflict_record?: string | null;
  content_hash: string;
  created_at: string;
  updated_at: string;
  /** 0/1 (schema v10). */
  pinned: number;
  snoozed_until: string | null;
  embedding?: Uint8Array | null;
}

/** A row as the public entry; optional fields are left out rather than set to undefined. */
export function toEntry(row: EntryRow): MemoryEntry {
  const entry: MemoryEntry = {
    id: row.id,
    key: row.key,
    content: row.content,
    category: row.category,
    namespace: row.namespace,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
  if (row.session_id !== null) entry.sessionId = row.session_id;
  if (row.importance !== null) entry.importance = row.importance;
  if (row.superseded_by !== null) entry.supersededBy = row.superseded_by;
  if (typeof row.supersession_record === "string")
    entry.supersessionRecord = JSON.parse(row.supersession_record);
  if (typeof row.conflict_record === "string")
    entry.conflictRecord = JSON.parse(row.conflict_record);
  if (row.pinned === 1) entry.pinned = true;
  if (row.snoozed_until !== null) entry.snoozedUntil = row.snoozed_until;
  if (row.embedding) entry.embedding = blobToArray(row.embedding);
  return entry;
}

/** A decision record as the JSON text its column keeps (null: none). */
export function recordText(record: object | undefined): string | undefined {
  return record === undefined ? undefined : JSON.stringify(record);
}
