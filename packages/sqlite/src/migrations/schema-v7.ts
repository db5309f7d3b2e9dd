import type Database from "better-sqlite3";

/**
 * Schema v7: decision records. Why an entry was superseded (`supersession_record`) and what
 * conflict detection decided when it was stored (`conflict_record`), each a JSON text written
 * in the same statement as the mark or the entry (docs/history.md). Both nullable: older rows
 * simply have none.
 */
export function upgradeToV7(db: Database.Database): void {
  const columns = new Set(
    (db.prepare("PRAGMA table_info(memories)").all() as { name: string }[]).map((c) => c.name),
  );
  if (!columns.has("supersession_record"))
    db.exec("ALTER TABLE memories ADD COLUMN supersession_record TEXT");
  if (!columns.has("conflict_record"))
    db.exec("ALTER TABLE memories ADD COLUMN conflict_record TEXT");
}
