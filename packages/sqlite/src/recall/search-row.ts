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
  contentHash: string,
  createdAt: string,
  updatedAt: string,
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
  const entry: MemoryEntry = {
    id: row[1],
    key: row[3],
    content: row[4],
    category: row[5],
    namespace: row[2],
    createdAt: row[10],
    updatedAt: row[11],
  };
  if (row[6] !== null) entry.sessionId = row[6];
  if (row[7] !== null) entry.importance = row[7];
  if (row[8] !== null) entry.supersededBy = row[8];
  return { docId: row[0], contentHash: row[9], indexed: { entry, terms: row[12] } };
}
