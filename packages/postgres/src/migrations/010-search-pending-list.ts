import type { Migration } from "./migration.js";

/**
 * Schema 10: the GIN index of `memories.search` keeps at most 128 kB of unmerged entries
 * (`gin_pending_list_limit`, server default 4 MB). A row written while the index exists goes to
 * the index's unsorted pending list (`fastupdate`), merged only by VACUUM or by the insert that
 * fills the list, and every search reads the whole list: with the server's 4 MB, 2,000 stores
 * doubled the database's CPU per keyword recall at 10k entries (4.1 ms instead of 2.0; each
 * query term's lookup and each document-frequency count read 113 pending pages). At 128 kB a
 * lookup reads at most 16 pages and an insert merges about 300 rows at a time: measured over
 * 2,000 stores then 2,000 recalls through the server (10k entries, 16 clients), database CPU
 * per store 1.2 -> 1.5 ms, per recall 4.1 -> 2.0 ms (`fastupdate = off`: 2.0 and 2.1). Only
 * the index's storage parameter changes; no row or index entry is rewritten.
 * `createSearchIndex` builds the index with the same setting.
 */
export const searchPendingList: Migration = {
  version: 10,
  name: "search index pending list limit",
  up: (s) => `
    ALTER INDEX IF EXISTS ${s}.memories_search SET (gin_pending_list_limit = 128);
  `,
};
