import type { Memory, MemoryEntry } from "@memory/api";
import type { MemoryContext, MemoryContextOptions } from "./memory-context.js";

/**
 * Times an entry must have been shown, never used, before `usageDemotion` lowers it: the snooze
 * candidates' bar (docs/usage.md), so one unlucky question demotes nothing.
 */
export const DEMOTION_MIN_SURFACED = 10;

/**
 * The context's demotion of noise (`usageDemotion`, off by default; measured in
 * docs/retrieval-quality.md): an entry shown at least 10 times whose feedback never said used
 * has its relevance lowered by that fraction before the block is chosen, so that what the agent
 * keeps ignoring stops taking places. Explicit recall is never demoted. Returns the entries
 * unchanged when the fraction is 0, the backend keeps no usage or nothing qualifies.
 */
export async function demoteIgnored(
  memory: Memory,
  entries: MemoryEntry[],
  fraction: number,
  namespace: string | undefined,
): Promise<MemoryEntry[]> {
  if (fraction <= 0 || !memory.capabilities.usage || entries.length === 0) return entries;
  const report = await memory.usage({
    keys: entries.map((entry) => entry.key),
    limit: entries.length,
    ...(namespace === undefined ? {} : { namespace }),
  });
  const ignored = new Set(
    report.entries
      .filter(({ stats }) => stats.surfaced >= DEMOTION_MIN_SURFACED && stats.used === 0)
      .map(({ key }) => key),
  );
  if (ignored.size === 0) return entries;
  return entries.map((entry) => {
    if (!ignored.has(entry.key) || !entry.explain) return entry;
    const fused = entry.explain.fused * (1 - fraction);
    return { ...entry, explain: { ...entry.explain, fused } };
  });
}

/**
 * The block with its `recallId`: its entries recorded as surfaced by the context (usage is
 * advice: a failure to record it leaves the block without an id, never without its memories).
 */
export async function tracked(
  memory: Memory,
  built: MemoryContext,
  query: string,
  options: MemoryContextOptions,
): Promise<MemoryContext> {
  if (options.track === false || !memory.capabilities.usage || built.entries.length === 0)
    return built;
  try {
    const recallId = await memory.trackRecall({
      query,
      keys: built.entries.map((entry) => entry.key),
      source: "context",
      ...(options.namespace === undefined ? {} : { namespace: options.namespace }),
    });
    return { ...built, recallId };
  } catch {
    return built;
  }
}
