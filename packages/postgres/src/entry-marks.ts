import type { EntryMark, MemoryEntry } from "@memory/api";
import { ENTRY_COLUMNS, type EntryRow, rowToEntry } from "./entry-row.js";
import type { RunStatement } from "./write-batch.js";

/**
 * A write batch's marks (pins and snoozes), each one UPDATE of those two columns alone: the
 * content, its index terms, `updated_at` and the write order stay as they are, so a pin neither
 * makes an entry "recent" nor re-ranks it by age. The UPDATE still fires the change-token
 * trigger of `memories`, as it must: a snooze changes what recall returns, in every replica.
 * Returns each mark's entry as it is now (undefined: no such entry).
 */
export async function applyMarks(
  memories: string,
  marks: readonly EntryMark[],
  run: RunStatement,
): Promise<(MemoryEntry | undefined)[]> {
  const marked: (MemoryEntry | undefined)[] = [];
  for (const mark of marks) {
    const updated = await run<EntryRow>(
      `UPDATE ${memories} AS m SET
         pinned = coalesce($3::boolean, m.pinned),
         snoozed_until = CASE WHEN $4::boolean THEN $5::timestamptz ELSE m.snoozed_until END
       WHERE m.namespace = $1 AND m.key = $2
       RETURNING ${ENTRY_COLUMNS}`,
      [
        mark.namespace,
        mark.key,
        mark.pinned ?? null,
        // Absent keeps the snooze; `null` clears it; an instant sets it.
        mark.snoozedUntil !== undefined,
        mark.snoozedUntil ?? null,
      ],
    );
    const row = updated.rows[0];
    marked.push(row ? rowToEntry(row) : undefined);
  }
  return marked;
}
