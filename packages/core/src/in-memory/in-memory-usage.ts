import type { DriverUsage, EntryMarkCursor, UsageEvent, UsageRecord } from "@memory/api";
import { InMemoryStore } from "./in-memory-store.js";

function copyRecord(record: UsageRecord): UsageRecord {
  return structuredClone(record);
}

/**
 * The reference usage storage: events in an array, records in a Map. Nothing awaits between
 * reading and writing, so each call is atomic, as a transaction would make it.
 */
export function inMemoryUsage(store: InMemoryStore): DriverUsage {
  return {
    record: async (events, update) => {
      store.usageEvents.push(...events.map((event) => ({ ...event })));
      const byKey = new Map<string, UsageEvent[]>();
      for (const event of events) {
        const id = InMemoryStore.id(event.namespace, event.key);
        const list = byKey.get(id);
        if (list) list.push(event);
        else byKey.set(id, [event]);
      }
      for (const [id, keyEvents] of byKey) {
        // Records only for stored entries: a later entry under the key starts from zero.
        if (!store.rows.has(id)) continue;
        const current = store.usageRecords.get(id);
        store.usageRecords.set(id, copyRecord(update(current && copyRecord(current), keyEvents)));
      }
    },
    events: async (namespace, recallId) =>
      store.usageEvents
        .filter((event) => event.namespace === namespace && event.recallId === recallId)
        .map((event) => ({ ...event })),
    read: async (namespace, keys) =>
      keys.map((key) => {
        const record = store.usageRecords.get(InMemoryStore.id(namespace, key));
        return record && copyRecord(record);
      }),
    scan: async (namespace, after, limit) =>
      [...store.usageRecords.values()]
        .filter(
          (record) =>
            (namespace === undefined || record.namespace === namespace) &&
            (after === undefined || isAfter(record, after)),
        )
        .sort((a, b) => (isAfter(a, b) ? 1 : -1))
        .slice(0, limit)
        .map(copyRecord),
    put: async (records) => {
      for (const record of records)
        if (store.rows.has(InMemoryStore.id(record.namespace, record.key)))
          store.usageRecords.set(
            InMemoryStore.id(record.namespace, record.key),
            copyRecord(record),
          );
    },
    prune: async (olderThan, keep) => {
      const before = store.usageEvents.length;
      const recent = store.usageEvents.filter((event) => event.at >= olderThan);
      store.usageEvents = recent.slice(Math.max(0, recent.length - keep));
      return before - store.usageEvents.length;
    },
    countEvents: async () => store.usageEvents.length,
  };
}

function isAfter(record: EntryMarkCursor, cursor: EntryMarkCursor): boolean {
  return record.namespace !== cursor.namespace
    ? record.namespace > cursor.namespace
    : record.key > cursor.key;
}

/** A deleted entry's usage goes with it: its record and every event naming it. */
export function dropUsage(store: InMemoryStore, namespace: string, key: string): void {
  store.usageRecords.delete(InMemoryStore.id(namespace, key));
  if (store.usageEvents.some((event) => event.namespace === namespace && event.key === key))
    store.usageEvents = store.usageEvents.filter(
      (event) => event.namespace !== namespace || event.key !== key,
    );
}
