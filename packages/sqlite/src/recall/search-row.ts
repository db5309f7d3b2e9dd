import type { IndexedEntry } from "@memory/api";
import { ENTRY_COLUMNS, type EntryRow, toEntry } from "../row-mapping.js";

/** Entry columns plus the indexed terms the recall engine scores with. */
export const SEARCH_COLUMNS = `${ENTRY_COLUMNS}, m.search_terms`;

export interface SearchRow extends EntryRow {
  search_terms: string;
}

export function toIndexedEntry(row: SearchRow): IndexedEntry {
  return { entry: toEntry(row), terms: row.search_terms };
}
