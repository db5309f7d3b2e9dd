import { createHash } from "node:crypto";
import type { UsageEvent, UsageRecord, UsageStats } from "@memory/api";

/**
 * How many distinct query hashes a record remembers to count `queries`: a query used again
 * after this many other distinct ones counts again (docs/usage.md). Bounds the record's size.
 */
export const RECENT_QUERIES_KEPT = 32;

/** A fresh record with nothing counted. */
export function emptyUsageRecord(namespace: string, key: string): UsageRecord {
  return {
    namespace,
    key,
    stats: { surfaced: 0, used: 0, ignored: 0, queries: 0, days: 0 },
    recentQueries: [],
  };
}

/**
 * What events do to an entry's record: the one place statistics are computed (every driver
 * stores what this returns). Events come in the order they happened.
 */
export function applyUsageEvents(
  current: UsageRecord | undefined,
  events: readonly UsageEvent[],
): UsageRecord {
  const first = events[0];
  if (!first && !current) throw new Error("applyUsageEvents needs a record or an event");
  const base = current ?? emptyUsageRecord(first!.namespace, first!.key);
  const stats: UsageStats = { ...base.stats };
  const recentQueries = [...base.recentQueries];
  let lastUsedDay = base.lastUsedDay;
  for (const event of events) {
    if (event.kind === "surfaced") {
      stats.surfaced++;
      stats.lastSurfacedAt = latest(stats.lastSurfacedAt, event.at);
    } else if (event.kind === "ignored") {
      stats.ignored++;
    } else {
      stats.used++;
      stats.lastUsedAt = latest(stats.lastUsedAt, event.at);
      const day = event.at.slice(0, 10);
      if (day !== lastUsedDay) {
        stats.days++;
        lastUsedDay = day;
      }
      if (event.query !== undefined) countQuery(stats, recentQueries, queryHash(event.query));
    }
  }
  const record: UsageRecord = { namespace: base.namespace, key: base.key, stats, recentQueries };
  if (lastUsedDay !== undefined) record.lastUsedDay = lastUsedDay;
  return record;
}

/** A query counts once while it is among the most recent distinct ones; it moves to the end. */
function countQuery(stats: UsageStats, recent: string[], hash: string): void {
  const seen = recent.indexOf(hash);
  if (seen >= 0) recent.splice(seen, 1);
  else stats.queries++;
  recent.push(hash);
  if (recent.length > RECENT_QUERIES_KEPT) recent.splice(0, recent.length - RECENT_QUERIES_KEPT);
}

function latest(a: string | undefined, b: string): string {
  return a === undefined || b > a ? b : a;
}

/**
 * The query as a usage event keeps it: a hash of its normalized text by default (the same
 * question asked with other spacing or case is the same query), the text itself when the store
 * is configured to keep queries (`usage_store_queries`).
 */
export function usageQuery(query: string, storeText: boolean): string | undefined {
  const normalized = query.trim().replace(/\s+/g, " ").toLowerCase();
  if (normalized === "" || normalized === "*") return undefined;
  return storeText ? query : hashOf(normalized);
}

/** A stored query (hash or text) as the hash `recentQueries` compares. */
function queryHash(query: string): string {
  return query.startsWith("sha256:")
    ? query
    : hashOf(query.trim().replace(/\s+/g, " ").toLowerCase());
}

function hashOf(normalized: string): string {
  return `sha256:${createHash("sha256").update(normalized).digest("hex").slice(0, 32)}`;
}
