import type { StatementCache } from "../statement-cache.js";
import { COUNT_SURFACED, foldSurfaced, LIVE_KEY } from "./surfaced-rows.js";

const COUNT_EVENTS = `SELECT (SELECT count(*) FROM usage_events) + (${COUNT_SURFACED})`;
const LIVE_KEYS_OF_ROW = `(SELECT count(*) FROM json_each(s.keys) AS j WHERE ${LIVE_KEY})`;
const SURFACED_BEFORE = `SELECT coalesce(sum(${LIVE_KEYS_OF_ROW}), 0) FROM usage_surfaced AS s
  WHERE s.at < ?`;
const DELETE_EVENTS_BEFORE = "DELETE FROM usage_events WHERE at < ?";
const DELETE_SURFACED_BEFORE = "DELETE FROM usage_surfaced WHERE at < ?";
// Oldest first across both tables: by time, then a recall's surfaced row before the feedback
// of the same instant (feedback follows its recall), then the order each table wrote them.
const OLDEST_FIRST = `SELECT 0 AS packed, seq, at, 1 AS events FROM usage_events
  UNION ALL
  SELECT 1, s.seq, s.at, ${LIVE_KEYS_OF_ROW} FROM usage_surfaced AS s
  ORDER BY at, packed DESC, seq`;
const DELETE_EVENTS_THROUGH = "DELETE FROM usage_events WHERE seq <= ?";
const DELETE_SURFACED_THROUGH = "DELETE FROM usage_surfaced WHERE seq <= ?";
// A note older than every row left excludes nothing any more (schema v12).
const DROP_STALE_FORGOTTEN = `DELETE FROM usage_forgotten
  WHERE through_seq < coalesce((SELECT min(seq) FROM usage_surfaced), 9223372036854775807)`;

/** How many events are stored: feedback and older rows, plus every live key of surfaced rows. */
export function countUsageEvents(statements: StatementCache): number {
  return statements.get(COUNT_EVENTS).pluck().get() as number;
}

/**
 * `DriverUsage.prune` inside the caller's write transaction: applies what waits to the records
 * first (statistics outlive their events), deletes events before `olderThan`, then the oldest
 * beyond `keep`. A recall's surfaced row goes whole: when it straddles the bound, slightly
 * fewer than `keep` stay. Returns how many events went.
 */
export function pruneUsageEvents(
  statements: StatementCache,
  olderThan: string,
  keep: number,
): number {
  foldSurfaced(statements);
  let removed = statements.get(SURFACED_BEFORE).pluck().get(olderThan) as number;
  statements.get(DELETE_SURFACED_BEFORE).run(olderThan);
  removed += statements.get(DELETE_EVENTS_BEFORE).run(olderThan).changes;
  removed += removeOldestBeyond(statements, Math.max(keep, 0));
  statements.get(DROP_STALE_FORGOTTEN).run();
  return removed;
}

function removeOldestBeyond(statements: StatementCache, keep: number): number {
  const excess = countUsageEvents(statements) - keep;
  if (excess <= 0) return 0;
  let removed = 0;
  let eventsThrough = 0;
  let surfacedThrough = 0;
  const rows = statements.get(OLDEST_FIRST).iterate() as IterableIterator<{
    packed: number;
    seq: number;
    events: number;
  }>;
  for (const row of rows) {
    if (removed >= excess) break;
    removed += row.events;
    if (row.packed === 1) surfacedThrough = row.seq;
    else eventsThrough = row.seq;
  }
  statements.get(DELETE_EVENTS_THROUGH).run(eventsThrough);
  statements.get(DELETE_SURFACED_THROUGH).run(surfacedThrough);
  return removed;
}
