import type { UsageEvent, UsageRecord } from "@memory/api";
import { applyUsageEvents } from "@memory/core";
import type { StatementCache } from "../statement-cache.js";
import { applyToRecords, entryId, eventsByEntry, isEntry } from "./record-updates.js";
import { type EventRow, toEvent } from "./usage-rows.js";

/**
 * Unfolded rows after which `surface` folds in its own transaction. A fold then applies at most
 * this many recalls' events (a few thousand at 10 results each: milliseconds), and a read after
 * a long run of recalls finds little left to do.
 */
export const FOLD_AFTER_ROWS = 256;

const INSERT_SURFACED = `INSERT INTO usage_surfaced (recall_id, namespace, at, query, source, keys)
  VALUES (?, ?, ?, ?, ?, ?)`;
// A key whose entry was deleted after the row was written is not one of the row's events (`s`:
// the row, `j`: its key in json_each).
export const LIVE_KEY = `NOT EXISTS (SELECT 1 FROM usage_forgotten AS f
  WHERE f.namespace = s.namespace AND f.key = j.value AND f.through_seq >= s.seq)`;
/** Rows as `surfaced` events (the columns of usage-rows.ts), in the order they were written. */
const expanded = (where: string) => `SELECT s.recall_id, s.namespace, j.value AS key,
    'surfaced' AS kind, s.at, s.query, s.source
  FROM usage_surfaced AS s, json_each(s.keys) AS j
  WHERE ${where} AND ${LIVE_KEY}
  ORDER BY s.seq, j.key`;
const RECALL_SURFACED = expanded("s.namespace = ? AND s.recall_id = ?");
const UNFOLDED = expanded("s.seq > ? AND s.seq <= ?");
export const COUNT_SURFACED = `SELECT count(*) FROM usage_surfaced AS s, json_each(s.keys) AS j
  WHERE ${LIVE_KEY}`;
const NEWEST = "SELECT max(seq) FROM usage_surfaced";
const FOLDED = "SELECT CAST(value AS INTEGER) FROM meta WHERE key = 'usage_folded_seq'";
const SET_FOLDED = "UPDATE meta SET value = ? WHERE key = 'usage_folded_seq'";
const BEHIND = `SELECT coalesce((SELECT max(seq) FROM usage_surfaced), 0)
  > (SELECT CAST(value AS INTEGER) FROM meta WHERE key = 'usage_folded_seq')`;

/** Appends surfaced events: one row per recall (a run of events sharing its id, time, query, source). */
export function insertSurfaced(statements: StatementCache, events: readonly UsageEvent[]): void {
  const insert = statements.get(INSERT_SURFACED);
  let run: UsageEvent[] = [];
  let newest = 0;
  const write = () => {
    const first = run[0];
    if (!first) return;
    const keys = JSON.stringify(run.map((event) => event.key));
    const { lastInsertRowid } = insert.run(
      first.recallId,
      first.namespace,
      first.at,
      first.query ?? null,
      first.source,
      keys,
    );
    newest = Number(lastInsertRowid);
    run = [];
  };
  for (const event of events) {
    if (event.kind !== "surfaced")
      throw new TypeError(`surface takes surfaced events only, got a ${event.kind} event.`);
    const first = run[0];
    if (first && !sameRecall(first, event)) write();
    run.push(event);
  }
  write();
  // The seq of the row just written is the newest: no other writer holds the lock.
  if (newest - foldedThrough(statements) >= FOLD_AFTER_ROWS) foldSurfaced(statements);
}

function sameRecall(a: UsageEvent, b: UsageEvent): boolean {
  return (
    a.recallId === b.recallId &&
    a.namespace === b.namespace &&
    a.at === b.at &&
    a.query === b.query &&
    a.source === b.source
  );
}

/** One recall's surfaced events, in result order. */
export function recallSurfaced(
  statements: StatementCache,
  namespace: string,
  recallId: string,
): UsageEvent[] {
  return (statements.get(RECALL_SURFACED).all(namespace, recallId) as EventRow[]).map(toEvent);
}

/** Whether rows wait to be applied to records (a read statement: no lock taken). */
export function foldBehind(statements: StatementCache): boolean {
  return statements.get(BEHIND).pluck().get() === 1;
}

/**
 * Applies every row not yet applied to the records of its keys, with the facade's own rule
 * (`applyUsageEvents`), inside the caller's write transaction. Surfacing only counts, so the
 * result is what applying each row when it was written would have given.
 */
export function foldSurfaced(statements: StatementCache): void {
  const { events, newest } = unfolded(statements);
  if (newest === undefined) return;
  applyToRecords(statements, events, applyUsageEvents);
  statements.get(SET_FOLDED).run(String(newest));
}

/** The events of the rows not yet folded, and the newest row's seq (undefined: none wait). */
function unfolded(statements: StatementCache): { events: UsageEvent[]; newest?: number } {
  const newest = statements.get(NEWEST).pluck().get() as number | null;
  const folded = foldedThrough(statements);
  if (newest === null || newest <= folded) return { events: [] };
  const rows = statements.get(UNFOLDED).all(folded, newest) as EventRow[];
  return { events: rows.map(toEvent), newest };
}

/**
 * `records` (of the entries `ids` name, position by position) as a fold would leave them,
 * computed without writing: for a store that cannot be written now (read-only, a full disk),
 * where the fold itself fails. A key with no record yet gets one only where `records` has a
 * position for it (a read asks by key; a scan lists stored records).
 */
export function withUnfolded(
  statements: StatementCache,
  ids: readonly { namespace: string; key: string }[],
  records: (UsageRecord | undefined)[],
): (UsageRecord | undefined)[] {
  const { events } = unfolded(statements);
  if (events.length === 0) return records;
  const byEntry = eventsByEntry(events);
  return records.map((record, index) => {
    const { namespace, key } = ids[index]!;
    const own = byEntry.get(entryId(namespace, key))?.events;
    if (!own || !isEntry(statements, namespace, key)) return record;
    return { ...applyUsageEvents(record, own), namespace, key };
  });
}

function foldedThrough(statements: StatementCache): number {
  return statements.get(FOLDED).pluck().get() as number;
}
