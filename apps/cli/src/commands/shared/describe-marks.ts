import type { EntryUsage, MemoryEntry } from "@memory/api";

/** The options after a key in a suggested command: ` --namespace ns` outside `default`. */
export function namespaceFlag(namespace: string): string {
  return namespace === "default" ? "" : ` --namespace ${namespace}`;
}

/** `pinned, snoozed until 2026-12-01T00:00:00.000Z`, or "" for an entry without marks. */
export function marksOf(entry: Pick<MemoryEntry | EntryUsage, "pinned" | "snoozedUntil">): string {
  return [
    entry.pinned ? "pinned" : undefined,
    entry.snoozedUntil === undefined ? undefined : `snoozed until ${entry.snoozedUntil}`,
  ]
    .filter((mark) => mark !== undefined)
    .join(", ");
}
