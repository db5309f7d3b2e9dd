import type { Memory } from "@memory/api";
import { type Access, visibleNamespaces } from "./access.js";

const BUILT_IN_CATEGORIES = ["core", "daily", "conversation"] as const;
export interface NamespaceSummary {
  namespace: string;
  entries: number;
  superseded: number;
  categories: Record<string, number>;
}

/**
 * Counts per namespace and category. A scoped caller's namespaces are known, so each number is
 * one `count` (no entry is read). The contract has no way to name the namespaces of a store, so
 * a full-access caller's view comes from one streamed pass over the store, without contents
 * being kept: memory stays constant, time grows with the store.
 */
export async function namespaceSummaries(
  memory: Memory,
  access: Access,
): Promise<NamespaceSummary[]> {
  const visible = visibleNamespaces(access);
  if (visible !== undefined) {
    return Promise.all(visible.map((namespace) => countNamespace(memory, namespace)));
  }
  const byName = new Map<string, NamespaceSummary>();
  for await (const entry of memory.export({ includeSuperseded: true })) {
    let summary = byName.get(entry.namespace);
    if (!summary) {
      summary = { namespace: entry.namespace, entries: 0, superseded: 0, categories: {} };
      byName.set(entry.namespace, summary);
    }
    if (entry.supersededBy !== undefined) {
      summary.superseded++;
      continue;
    }
    summary.entries++;
    summary.categories[entry.category] = (summary.categories[entry.category] ?? 0) + 1;
  }
  return [...byName.values()].sort((a, b) => (a.namespace < b.namespace ? -1 : 1));
}

/**
 * One namespace's counts, each one `count` (no entry is read): custom categories are counted
 * together as "other".
 */
export async function countNamespace(memory: Memory, namespace: string): Promise<NamespaceSummary> {
  const [entries, all, ...perCategory] = await Promise.all([
    memory.count({ namespace }),
    memory.count({ namespace, includeSuperseded: true }),
    ...BUILT_IN_CATEGORIES.map((category) => memory.count({ namespace, categories: [category] })),
  ]);
  const categories: Record<string, number> = {};
  BUILT_IN_CATEGORIES.forEach((category, index) => {
    categories[category] = perCategory[index] ?? 0;
  });
  const other = entries - perCategory.reduce((sum, count) => sum + count, 0);
  if (other > 0) categories.other = other;
  return { namespace, entries, superseded: all - entries, categories };
}
