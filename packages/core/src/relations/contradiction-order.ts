import type { MemoryDriver, MemoryEntry } from "@memory/api";

/** Outgoing `contradicts` edges read per recall, at most (a recall returns few results). */
const CONTRADICTS_READ_MAX = 1000;

/**
 * The recall rule for contradictions, once for every backend: a result that `contradicts`
 * others (its outgoing `contradicts` relations, which `conflict_policy = "link"` writes from the
 * newer entry to the older) says so in `explain.contradicts`, and when an entry it contradicts
 * is also returned, it is moved just above that entry: the newer statement is read first. Scores
 * are left as they are, so a moved result may carry a lower score than the one below it.
 */
export async function orderContradictions(
  driver: MemoryDriver,
  results: MemoryEntry[],
): Promise<MemoryEntry[]> {
  if (!driver.capabilities.relations || !driver.relations || results.length === 0) return results;
  const namespace = results[0]!.namespace;
  const keys = results.filter((entry) => entry.namespace === namespace).map((entry) => entry.key);
  const edges = await driver.relations.find({
    namespace,
    keys,
    direction: "out",
    types: ["contradicts"],
    limit: CONTRADICTS_READ_MAX,
  });
  if (edges.length === 0) return results;
  const targets = new Map<string, string[]>();
  for (const edge of edges) targets.set(edge.from, [...(targets.get(edge.from) ?? []), edge.to]);
  const ordered = results.map((entry) => {
    const contradicts = entry.namespace === namespace ? targets.get(entry.key) : undefined;
    if (!contradicts || !entry.explain) return entry;
    return { ...entry, explain: { ...entry.explain, contradicts: [...contradicts].sort() } };
  });
  // One pass over the edges: a cycle (each contradicts the other) cannot loop.
  for (const edge of edges) {
    const newer = ordered.findIndex((e) => e.namespace === namespace && e.key === edge.from);
    const older = ordered.findIndex((e) => e.namespace === namespace && e.key === edge.to);
    if (newer < 0 || older < 0 || newer < older) continue;
    const [moved] = ordered.splice(newer, 1);
    ordered.splice(older, 0, moved!);
  }
  return ordered;
}
