import type { UsageEvent, UsageRecord } from "@memory/api";
import type { StatementCache } from "../statement-cache.js";
import { RECORD_COLUMNS, type RecordRow, recordParams, toRecord } from "./usage-rows.js";

export const READ_RECORD = `SELECT ${RECORD_COLUMNS} FROM usage_records WHERE namespace = ? AND key = ?`;
// Records belong to stored entries only: the delete trigger (schema v10) removes an entry's
// record with it, and a record written for a key that is no entry would outlive any delete and
// be inherited by a later entry of that key.
export const PUT_RECORD = `INSERT INTO usage_records (${RECORD_COLUMNS})
  SELECT @namespace, @key, @surfaced, @used, @ignored, @queries, @days, @last_surfaced_at,
    @last_used_at, @last_used_day, @recent_queries
  WHERE EXISTS (SELECT 1 FROM memories WHERE namespace = @namespace AND key = @key)
  ON CONFLICT (namespace, key) DO UPDATE SET
    surfaced = excluded.surfaced, used = excluded.used, ignored = excluded.ignored,
    queries = excluded.queries, days = excluded.days,
    last_surfaced_at = excluded.last_surfaced_at, last_used_at = excluded.last_used_at,
    last_used_day = excluded.last_used_day, recent_queries = excluded.recent_queries`;
const ENTRY_EXISTS = "SELECT 1 FROM memories WHERE namespace = ? AND key = ?";

/** Whether `(namespace, key)` is a stored entry: only entries have records. */
export function isEntry(statements: StatementCache, namespace: string, key: string): boolean {
  return statements.get(ENTRY_EXISTS).get(namespace, key) !== undefined;
}

export type RecordUpdate = (
  current: UsageRecord | undefined,
  events: readonly UsageEvent[],
) => UsageRecord;

/**
 * Applies events to the records of the keys they name, key by key, events in order, inside the
 * caller's transaction: reads each stored entry's record, calls `update`, stores the result.
 * Keys that are no stored entry get no record.
 */
export function applyToRecords(
  statements: StatementCache,
  events: readonly UsageEvent[],
  update: RecordUpdate,
): void {
  const read = statements.get(READ_RECORD);
  const put = statements.get(PUT_RECORD);
  for (const { namespace, key, events: own } of eventsByEntry(events).values()) {
    if (!isEntry(statements, namespace, key)) continue;
    const row = read.get(namespace, key) as RecordRow | undefined;
    const next = update(row ? toRecord(row) : undefined, own);
    // The record is the named entry's, whatever `update` returned.
    put.run(recordParams({ ...next, namespace, key }));
  }
}

/** Events grouped by the entry they name, in order; keyed by {@link entryId}. */
export function eventsByEntry(
  events: readonly UsageEvent[],
): Map<string, { namespace: string; key: string; events: UsageEvent[] }> {
  const byEntry = new Map<string, { namespace: string; key: string; events: UsageEvent[] }>();
  for (const event of events) {
    const id = entryId(event.namespace, event.key);
    const group = byEntry.get(id);
    if (group) group.events.push(event);
    else byEntry.set(id, { namespace: event.namespace, key: event.key, events: [event] });
  }
  return byEntry;
}

/** JSON of the pair: no separator a key could contain. */
export function entryId(namespace: string, key: string): string {
  return JSON.stringify([namespace, key]);
}
