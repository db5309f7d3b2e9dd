import type { DriverUsage, EntryMarkCursor, UsageEvent, UsageRecord } from "@memory/api";
import type { Opened } from "../opened-store.js";
import {
  EVENT_COLUMNS,
  type EventRow,
  eventParams,
  RECORD_COLUMNS,
  type RecordRow,
  recordParams,
  toEvent,
  toRecord,
} from "./usage-rows.js";

const INSERT_EVENT = `INSERT INTO usage_events (${EVENT_COLUMNS})
  VALUES (@recall_id, @namespace, @key, @kind, @at, @query, @source)`;
const RECALL_EVENTS = `SELECT ${EVENT_COLUMNS} FROM usage_events
  WHERE namespace = ? AND recall_id = ? ORDER BY seq`;
const READ_RECORD = `SELECT ${RECORD_COLUMNS} FROM usage_records WHERE namespace = ? AND key = ?`;
// Records belong to stored entries only: the delete trigger (schema v10) removes an entry's
// record with it, and a record written for a key that is no entry would outlive any delete and
// be inherited by a later entry of that key.
const PUT_RECORD = `INSERT INTO usage_records (${RECORD_COLUMNS})
  SELECT @namespace, @key, @surfaced, @used, @ignored, @queries, @days, @last_surfaced_at,
    @last_used_at, @last_used_day, @recent_queries
  WHERE EXISTS (SELECT 1 FROM memories WHERE namespace = @namespace AND key = @key)
  ON CONFLICT (namespace, key) DO UPDATE SET
    surfaced = excluded.surfaced, used = excluded.used, ignored = excluded.ignored,
    queries = excluded.queries, days = excluded.days,
    last_surfaced_at = excluded.last_surfaced_at, last_used_at = excluded.last_used_at,
    last_used_day = excluded.last_used_day, recent_queries = excluded.recent_queries`;
const ENTRY_EXISTS = "SELECT 1 FROM memories WHERE namespace = ? AND key = ?";
const SCAN_NAMESPACE = `SELECT ${RECORD_COLUMNS} FROM usage_records
  WHERE namespace = ? AND (namespace, key) > (?, ?) ORDER BY namespace, key LIMIT ?`;
const SCAN_ALL = `SELECT ${RECORD_COLUMNS} FROM usage_records
  WHERE (namespace, key) > (?, ?) ORDER BY namespace, key LIMIT ?`;
const PRUNE_OLD = "DELETE FROM usage_events WHERE at < ?";
// `seq` is AUTOINCREMENT: the newest `keep` events are the `keep` highest seqs.
const PRUNE_BEYOND = `DELETE FROM usage_events WHERE seq < (
  SELECT seq FROM usage_events ORDER BY seq DESC LIMIT 1 OFFSET ?)`;
const PRUNE_ALL = "DELETE FROM usage_events";
const COUNT_EVENTS = "SELECT count(*) FROM usage_events";

/** Before every (namespace, key): the empty namespace and key sort first. */
const START: EntryMarkCursor = { namespace: "", key: "" };

/**
 * Usage storage on SQLite (`DriverUsage`). Every write runs as one IMMEDIATE transaction with
 * busy retries (`run(..., true)`, as every other write of the driver), and none moves the
 * recall cache's change token: the tables are not among those its triggers watch.
 */
export function sqliteUsage(
  run: <T>(body: (opened: Opened) => T, transaction?: boolean) => Promise<T>,
): DriverUsage {
  return {
    record: (events, update) =>
      run((opened) => {
        const { statements } = opened;
        const insert = statements.get(INSERT_EVENT);
        const byEntry = new Map<string, { namespace: string; key: string; events: UsageEvent[] }>();
        for (const event of events) {
          insert.run(eventParams(event));
          // JSON of the pair: no separator a key could contain.
          const id = JSON.stringify([event.namespace, event.key]);
          const group = byEntry.get(id);
          if (group) group.events.push(event);
          else byEntry.set(id, { namespace: event.namespace, key: event.key, events: [event] });
        }
        const exists = statements.get(ENTRY_EXISTS);
        const read = statements.get(READ_RECORD);
        const put = statements.get(PUT_RECORD);
        for (const { namespace, key, events: own } of byEntry.values()) {
          if (exists.get(namespace, key) === undefined) continue;
          const row = read.get(namespace, key) as RecordRow | undefined;
          const next = update(row ? toRecord(row) : undefined, own);
          // The record is the named entry's, whatever `update` returned.
          put.run(recordParams({ ...next, namespace, key }));
        }
      }, true),

    events: (namespace, recallId) =>
      run((opened) =>
        (opened.statements.get(RECALL_EVENTS).all(namespace, recallId) as EventRow[]).map(toEvent),
      ),

    read: (namespace, keys) =>
      run((opened) => {
        const read = opened.statements.get(READ_RECORD);
        return keys.map((key) => {
          const row = read.get(namespace, key) as RecordRow | undefined;
          return row ? toRecord(row) : undefined;
        });
      }),

    scan: (namespace, after, limit) =>
      run((opened) => {
        if (limit <= 0) return [];
        const from = after ?? START;
        const rows =
          namespace === undefined
            ? opened.statements.get(SCAN_ALL).all(from.namespace, from.key, limit)
            : opened.statements.get(SCAN_NAMESPACE).all(namespace, from.namespace, from.key, limit);
        return (rows as RecordRow[]).map(toRecord);
      }),

    put: (records: readonly UsageRecord[]) =>
      run((opened) => {
        const put = opened.statements.get(PUT_RECORD);
        for (const record of records) put.run(recordParams(record));
      }, true),

    prune: (olderThan, keep) =>
      run((opened) => {
        const { statements } = opened;
        let removed = statements.get(PRUNE_OLD).run(olderThan).changes;
        removed +=
          keep <= 0
            ? statements.get(PRUNE_ALL).run().changes
            : statements.get(PRUNE_BEYOND).run(keep - 1).changes;
        return removed;
      }, true),

    countEvents: () => run((opened) => opened.statements.get(COUNT_EVENTS).pluck().get() as number),
  };
}
