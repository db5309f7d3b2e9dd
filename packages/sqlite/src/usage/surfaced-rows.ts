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
// The rows a fold applies, their keys expanded in JavaScript: `json_each` and the forgotten
// check per key cost 13.5 ms for a fold of 256 recalls' 2,500 keys, about 50 us per recall.
const UNFOLDED_ROWS = `SELECT seq, recall_id, namespace, keys, at, query, source
  FROM usage_surfaced WHERE seq > ? AND seq <= ? ORDER BY seq`;
const ANY_FORGOTTEN = "SELECT EXISTS (SELECT 1 FROM usage_forgotten)";
const FORGOTTEN_THROUGH = "SELECT through_seq FROM usage_forgotten WHERE namespace = ? AND key = ?";
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

type SurfacedRow = [
  seq: number,
  recallId: string,
  namespace: string,
  keys: string,
  at: string,
  query: string | null,
  source: UsageEvent["source"],
];

/**
 * The events of the rows not yet folded, and the newest row's seq (undefined: none wait): what
 * `expanded` gives for those rows, keys whose entry was deleted after the row ({@link LIVE_KEY})
 * left out, in the same order.
 */
function unfolded(statements: StatementCache): { events: UsageEvent[]; newest?: number } {
  const newest = statements.get(NEWEST).pluck().get() as number | null;
  const folded = foldedThrough(statements);
  if (newest === null || newest <= folded) return { events: [] };
  const rows = statements.get(UNFOLDED_ROWS).raw(true).all(folded, newest) as SurfacedRow[];
  const forgotten = forgottenThrough(statements);
  const events: UsageEvent[] = [];
  for (const [seq, recallId, namespace, keys, at, query, source] of rows) {
    for (const key of JSON.parse(keys) as string[]) {
      const through = forgotten(namespace, key);
      if (through !== undefined && through >= seq) continue;
      const event: UsageEvent = { recallId, namespace, key, kind: "surfaced", at, source };
      if (query !== null) event.query = query;
      events.push(event);
    }
  }
  return { events, newest };
}

/**
 * The `through_seq` of a deleted key's note, by primary key and once per key; no lookup at all
 * while no entry was deleted since the notes were last pruned (the common case).
 */
function forgottenThrough(
  statements: StatementCache,
): (namespace: string, key: string) => number | undefined {
  if (statements.get(ANY_FORGOTTEN).pluck().get() !== 1) return () => undefined;
  const lookup = statements.get(FORGOTTEN_THROUGH).pluck();
  const seen = new Map<string, number | undefined>();
  return (namespace, key) => {
    const id = `${namespace}\u0000${key}`;
    if (!seen.has(id)) seen.set(id, lookup.get(namespace, key) as number | undefined);
    return seen.get(id);
  };
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
