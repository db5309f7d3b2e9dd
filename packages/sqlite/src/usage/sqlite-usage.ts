import { type DriverUsage, type EntryMarkCursor, MemoryError, type UsageRecord } from "@memory/api";
import type { Opened } from "../opened-store.js";
import { applyToRecords, PUT_RECORD, READ_RECORD } from "./record-updates.js";
import {
  foldBehind,
  foldSurfaced,
  insertSurfaced,
  recallSurfaced,
  withUnfolded,
} from "./surfaced-rows.js";
import { countUsageEvents, pruneUsageEvents } from "./usage-pruning.js";
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
const SCAN_NAMESPACE = `SELECT ${RECORD_COLUMNS} FROM usage_records
  WHERE namespace = ? AND (namespace, key) > (?, ?) ORDER BY namespace, key LIMIT ?`;
const SCAN_ALL = `SELECT ${RECORD_COLUMNS} FROM usage_records
  WHERE (namespace, key) > (?, ?) ORDER BY namespace, key LIMIT ?`;

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
  // Records a read returns include every surfaced row written before it (another process's
  // too): folded first, or, when the store cannot be written now, applied to what is returned.
  // False when the rows are still waiting.
  const catchUp = async (): Promise<boolean> => {
    if (!(await run((opened) => foldBehind(opened.statements)))) return true;
    try {
      await run((opened) => foldSurfaced(opened.statements), true);
      return true;
    } catch (error) {
      if (MemoryError.hasCode(error, "STORE_NOT_WRITABLE")) return false;
      throw error;
    }
  };
  return {
    record: (events, update) =>
      run((opened) => {
        const insert = opened.statements.get(INSERT_EVENT);
        for (const event of events) insert.run(eventParams(event));
        applyToRecords(opened.statements, events, update);
      }, true),

    // A recall's results as one row; their records catch up before any read (surfaced-rows.ts).
    surface: (events) => run((opened) => insertSurfaced(opened.statements, events), true),

    // Surfaced first: a recall's results are written before any feedback on them.
    events: (namespace, recallId) =>
      run((opened) => {
        const { statements } = opened;
        const later = statements.get(RECALL_EVENTS).all(namespace, recallId) as EventRow[];
        return [...recallSurfaced(statements, namespace, recallId), ...later.map(toEvent)];
      }),

    read: async (namespace, keys) => {
      const current = await catchUp();
      return run((opened) => {
        const read = opened.statements.get(READ_RECORD);
        const records = keys.map((key) => {
          const row = read.get(namespace, key) as RecordRow | undefined;
          return row ? toRecord(row) : undefined;
        });
        if (current) return records;
        const ids = keys.map((key) => ({ namespace, key }));
        return withUnfolded(opened.statements, ids, records);
      });
    },

    scan: async (namespace, after, limit) => {
      if (limit <= 0) return [];
      const current = await catchUp();
      return run((opened) => {
        const from = after ?? START;
        const rows =
          namespace === undefined
            ? opened.statements.get(SCAN_ALL).all(from.namespace, from.key, limit)
            : opened.statements.get(SCAN_NAMESPACE).all(namespace, from.namespace, from.key, limit);
        const records = (rows as RecordRow[]).map(toRecord);
        if (current) return records;
        return withUnfolded(opened.statements, records, records) as UsageRecord[];
      });
    },

    // Imported records replace what the store counted, surfaced rows not yet applied included.
    put: (records: readonly UsageRecord[]) =>
      run((opened) => {
        foldSurfaced(opened.statements);
        const put = opened.statements.get(PUT_RECORD);
        for (const record of records) put.run(recordParams(record));
      }, true),

    prune: (olderThan, keep) =>
      run((opened) => pruneUsageEvents(opened.statements, olderThan, keep), true),

    countEvents: () => run((opened) => countUsageEvents(opened.statements)),
  };
}
