import type { UsageEvent, UsageRecord, UsageSource } from "@memory/api";

/** The columns of `usage_events` (schema v10) that make an event. */
export const EVENT_COLUMNS = "recall_id, namespace, key, kind, at, query, source";

export interface EventRow {
  recall_id: string;
  namespace: string;
  key: string;
  kind: UsageEvent["kind"];
  at: string;
  query: string | null;
  source: UsageSource;
}

export function toEvent(row: EventRow): UsageEvent {
  const event: UsageEvent = {
    recallId: row.recall_id,
    namespace: row.namespace,
    key: row.key,
    kind: row.kind,
    at: row.at,
    source: row.source,
  };
  if (row.query !== null) event.query = row.query;
  return event;
}

/** An event as the named parameters of the insert. */
export function eventParams(event: UsageEvent): EventRow {
  return {
    recall_id: event.recallId,
    namespace: event.namespace,
    key: event.key,
    kind: event.kind,
    at: event.at,
    query: event.query ?? null,
    source: event.source,
  };
}

/** The columns of `usage_records`: the statistics as columns, the recent queries as JSON. */
export const RECORD_COLUMNS =
  "namespace, key, surfaced, used, ignored, queries, days, last_surfaced_at, last_used_at, last_used_day, recent_queries";

export interface RecordRow {
  namespace: string;
  key: string;
  surfaced: number;
  used: number;
  ignored: number;
  queries: number;
  days: number;
  last_surfaced_at: string | null;
  last_used_at: string | null;
  last_used_day: string | null;
  recent_queries: string;
}

/** A stored row as the record; optional fields are left out rather than set to undefined. */
export function toRecord(row: RecordRow): UsageRecord {
  const record: UsageRecord = {
    namespace: row.namespace,
    key: row.key,
    stats: {
      surfaced: row.surfaced,
      used: row.used,
      ignored: row.ignored,
      queries: row.queries,
      days: row.days,
    },
    recentQueries: JSON.parse(row.recent_queries) as string[],
  };
  if (row.last_surfaced_at !== null) record.stats.lastSurfacedAt = row.last_surfaced_at;
  if (row.last_used_at !== null) record.stats.lastUsedAt = row.last_used_at;
  if (row.last_used_day !== null) record.lastUsedDay = row.last_used_day;
  return record;
}

/** A record as the named parameters of the upsert. */
export function recordParams(record: UsageRecord): RecordRow {
  const { stats } = record;
  return {
    namespace: record.namespace,
    key: record.key,
    surfaced: stats.surfaced,
    used: stats.used,
    ignored: stats.ignored,
    queries: stats.queries,
    days: stats.days,
    last_surfaced_at: stats.lastSurfacedAt ?? null,
    last_used_at: stats.lastUsedAt ?? null,
    last_used_day: record.lastUsedDay ?? null,
    recent_queries: JSON.stringify(record.recentQueries),
  };
}
