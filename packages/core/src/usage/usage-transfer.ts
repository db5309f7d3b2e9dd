import type { MemoryEntry, UsageRecord, UsageRecordExport } from "@memory/api";
import type { FacadeContext } from "../facade-context.js";

/**
 * Export: each exported entry with usage carries it (`usage`), read for a whole page at once
 * (one driver call per namespace of the page), so `memory migrate` and an export/import round
 * trip keep what was learnt. Events are not exported: they are a bounded working log.
 */
export async function withUsage(
  context: FacadeContext,
  entries: MemoryEntry[],
): Promise<MemoryEntry[]> {
  const usage = context.driver.usage;
  if (!context.usage || !usage || entries.length === 0) return entries;
  await context.usage.drain();
  const byNamespace = new Map<string, MemoryEntry[]>();
  for (const entry of entries)
    byNamespace.set(entry.namespace, [...(byNamespace.get(entry.namespace) ?? []), entry]);
  const found = new Map<MemoryEntry, UsageRecordExport>();
  for (const [namespace, group] of byNamespace) {
    const records = await usage.read(
      namespace,
      group.map((entry) => entry.key),
    );
    records.forEach((record, index) => {
      if (record) found.set(group[index]!, exported(record));
    });
  }
  if (found.size === 0) return entries;
  return entries.map((entry) => {
    const record = found.get(entry);
    return record ? { ...entry, usage: record } : entry;
  });
}

function exported(record: UsageRecord): UsageRecordExport {
  const result: UsageRecordExport = { stats: record.stats, recentQueries: record.recentQueries };
  if (record.lastUsedDay !== undefined) result.lastUsedDay = record.lastUsedDay;
  return result;
}

/** Import: the usage of the entries a batch wrote (refused ones have none to keep). */
export async function importUsage(
  context: FacadeContext,
  written: readonly { namespace: string; key: string; usage: UsageRecordExport | undefined }[],
): Promise<void> {
  const usage = context.driver.usage;
  if (!context.usage || !usage) return;
  const records: UsageRecord[] = [];
  for (const { namespace, key, usage: given } of written) {
    if (!given) continue;
    const record: UsageRecord = {
      namespace,
      key,
      stats: given.stats,
      recentQueries: given.recentQueries,
    };
    if (given.lastUsedDay !== undefined) record.lastUsedDay = given.lastUsedDay;
    records.push(record);
  }
  if (records.length > 0) await usage.put(records);
}
