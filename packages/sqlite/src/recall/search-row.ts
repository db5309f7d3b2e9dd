import type { IndexedEntry, MemoryEntry } from "@memory/api";
import type Database from "better-sqlite3";
import { ENTRY_COLUMNS } from "../row-mapping.js";

/** Entry columns plus the indexed terms the recall engine scores with. */
export const SEARCH_COLUMNS = `${ENTRY_COLUMNS}, m.search_terms`;

/**
 * One row of {@link SEARCH_COLUMNS} as better-sqlite3's raw mode returns it: an array in column
 * order. Recall reads up to 4 x limit candidates and their session neighbours per query, and
 * a row as an array costs about a fifth less to read than a row as an object with named keys.
 */
export type SearchRow = [
  docId: number,
  id: string,
  namespace: string,
  key: string,
  content: string,
  category: string,
  sessionId: string | null,
  importance: number | null,
  supersededBy: string | null,
  supersessionRecord: string | null,
  conflictRecord: string | null,
  contentHash: string,
  createdAt: string,
  updatedAt: string,
  pinned: number,
  snoozedUntil: string | null,
  searchTerms: string,
  // Statements may select further columns after these (neighbours: the anchor's position).
  ...rest: unknown[],
];

/** A candidate row as recall uses it: the entry with its terms, and what `cosines()` needs. */
export interface SearchHit {
  docId: number;
  contentHash: string;
  indexed: IndexedEntry;
}

/** The rows of a statement selecting {@link SEARCH_COLUMNS} first, as arrays. */
export function searchRows(statement: Database.Statement, ...params: unknown[]): SearchRow[] {
  // Statements are shared by SQL text (StatementCache): set the mode on every use.
  return statement.raw(true).all(...params) as SearchRow[];
}

export function toSearchHit(row: SearchRow): SearchHit {
  // Positions follow ENTRY_COLUMNS (row-mapping.ts); the SearchRow type names each one.
  const entry: MemoryEntry = {
    id: row[1],
    key: row[3],
    content: row[4],
    category: row[5],
    namespace: row[2],
    createdAt: row[12],
    updatedAt: row[13],
  };
  if (row[6] !== null) entry.sessionId = row[6];
  if (row[7] !== null) entry.importance = row[7];
  if (row[8] !== null) entry.supersededBy = row[8];
  if (row[9] !== null) entry.supersessionRecord = JSON.parse(row[9]);
  if (row[10] !== null) entry.conflictRecord = JSON.parse(row[10]);
  if (row[14] === 1) entry.pinned = true;
  if (row[15] !== null) entry.snoozedUntil = row[15];
  return { docId: row[0], contentHash: row[11], indexed: { entry, terms: row[16] } };
}
