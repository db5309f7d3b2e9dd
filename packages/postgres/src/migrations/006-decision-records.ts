import type { Migration } from "./migration.js";

/**
 * Schema 6: decision records. Why an entry was superseded (`supersession_record`) and what
 * conflict detection decided when it was stored (`conflict_record`), each JSON text (not jsonb:
 * read back exactly as written) set in the same statement as the mark or the entry
 * (docs/history.md). Nullable columns without a default: adding them rewrites no row.
 */
export const decisionRecords: Migration = {
  version: 6,
  name: "decision records",
  up: (s) => `
    ALTER TABLE ${s}.memories ADD COLUMN IF NOT EXISTS supersession_record text;
    ALTER TABLE ${s}.memories ADD COLUMN IF NOT EXISTS conflict_record text;
  `,
};
