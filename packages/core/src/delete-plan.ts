import type { DeleteReport, MemoryEntry, NormalizedDeleteFilter } from "@memory/api";

/**
 * Which entries `deleteEntries` removes, and its report, for backends that hold their rows in
 * memory (the reference backend, Markdown): the same rules as the SQL backends. The
 * `keepNewest` floor ranks every entry of a (namespace, category) by `updatedAt`, then key,
 * whatever the other conditions.
 */
export function planDeletion<Row extends { entry: MemoryEntry }>(
  rows: Iterable<Row>,
  filter: NormalizedDeleteFilter & { keepPinned?: boolean },
): { report: DeleteReport; doomed: Row[] } {
  const groups = new Map<string, Row[]>();
  for (const row of rows) {
    const { namespace, category } = row.entry;
    if (filter.namespace !== undefined && namespace !== filter.namespace) continue;
    if (filter.categories && !filter.categories.includes(category)) continue;
    const group = `${namespace}\u0000${category}`;
    const list = groups.get(group);
    if (list) list.push(row);
    else groups.set(group, [row]);
  }
  const report: DeleteReport = { deleted: 0, byCategory: {} };
  const doomed: Row[] = [];
  for (const list of groups.values()) {
    list.sort((a, b) =>
      a.entry.updatedAt !== b.entry.updatedAt
        ? a.entry.updatedAt < b.entry.updatedAt
          ? 1
          : -1
        : a.entry.key < b.entry.key
          ? 1
          : -1,
    );
    list.forEach((row, rank) => {
      const { entry } = row;
      if (filter.olderThan !== undefined && !(entry.updatedAt < filter.olderThan)) return;
      if (
        filter.superseded !== undefined &&
        filter.superseded !== (entry.supersededBy !== undefined)
      )
        return;
      // Pinned entries are never eligible; they still hold their place in the keepNewest ranking.
      if (filter.keepPinned && entry.pinned) return;
      const counts = report.byCategory[entry.category] ?? { eligible: 0, deleted: 0 };
      report.byCategory[entry.category] = counts;
      counts.eligible++;
      if (rank < filter.keepNewest) return;
      counts.deleted++;
      report.deleted++;
      doomed.push(row);
    });
  }
  return { report, doomed };
}
