import type { EntryMark, MemoryEntry } from "@memory/api";
import { readEntries } from "./entry-queries.js";
import type { Opened } from "./opened-store.js";

// Only the two marks: no `updated_at` (a pin is not an edit), and no column the full-text or
// statistics triggers watch. The change-token trigger does fire: a snooze changes what recall
// returns, in this process and every other.
const MARK = `UPDATE memories SET
  pinned = coalesce(@pinned, pinned),
  snoozed_until = CASE WHEN @set_snooze THEN @snoozed_until ELSE snoozed_until END
WHERE namespace = @namespace AND key = @key`;

/**
 * Applies a write batch's pins and snoozes (inside its transaction) and returns each mark's
 * entry as it is now; undefined when there is no such entry.
 */
export function applyMarks(
  opened: Opened,
  marks: readonly EntryMark[],
): (MemoryEntry | undefined)[] {
  const mark = opened.statements.get(MARK);
  return marks.map(({ namespace, key, pinned, snoozedUntil }) => {
    const { changes } = mark.run({
      namespace,
      key,
      pinned: pinned === undefined ? null : Number(pinned),
      // Absent keeps the snooze, null clears it.
      set_snooze: snoozedUntil === undefined ? 0 : 1,
      snoozed_until: snoozedUntil ?? null,
    });
    return changes === 0 ? undefined : readEntries(opened, [{ namespace, key }], false)[0];
  });
}
