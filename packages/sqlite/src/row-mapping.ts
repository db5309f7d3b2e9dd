import type { MemoryEntry } from "@memory/api";
import { blobToArray } from "./vectors/vector-codec.js";

/** The columns every entry query selects (alias `m`). */
export const ENTRY_COLUMNS =
  "m.doc_id, m.id, m.namespace, m.key, m.content, m.category, m.session_id, m.importance, m.superseded_by, m.content_hash, m.created_at, m.updated_at";

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
  content_hash: string;
  created_at: string;
  updated_at: string;
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
  if (row.embedding) entry.embedding = blobToArray(row.embedding);
  return entry;
}
