import type { EntryRelation, MemoryDriver, MemoryEntry } from "@memory/api";

/**
 * Export format 2: each exported entry carries its outgoing relations (`relations`), read for a
 * whole page at once (one driver call per namespace of the page). Format 1 (no `relations`)
 * is what backends without `capabilities.relations` still write, and what every import reads.
 */
export async function withOutgoingRelations(
  driver: MemoryDriver,
  entries: MemoryEntry[],
): Promise<MemoryEntry[]> {
  if (!driver.capabilities.relations || !driver.relations || entries.length === 0) return entries;
  const byNamespace = new Map<string, string[]>();
  for (const entry of entries)
    byNamespace.set(entry.namespace, [...(byNamespace.get(entry.namespace) ?? []), entry.key]);
  const outgoing = new Map<string, EntryRelation[]>();
  for (const [namespace, keys] of byNamespace) {
    const edges = await driver.relations.find({ namespace, keys, direction: "out" });
    for (const edge of edges) {
      const id = `${namespace}\u0000${edge.from}`;
      const relation: EntryRelation = {
        to: edge.to,
        type: edge.type,
        weight: edge.weight,
        createdAt: edge.createdAt,
        updatedAt: edge.updatedAt,
      };
      if (edge.metadata !== undefined) relation.metadata = edge.metadata;
      outgoing.set(id, [...(outgoing.get(id) ?? []), relation]);
    }
  }
  if (outgoing.size === 0) return entries;
  return entries.map((entry) => {
    const relations = outgoing.get(`${entry.namespace}\u0000${entry.key}`);
    return relations ? { ...entry, relations } : entry;
  });
}
