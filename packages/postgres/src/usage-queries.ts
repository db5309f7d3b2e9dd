import type { DriverUsage, UsageEvent, UsageRecord } from "@memory/api";
import type { Database } from "./database.js";
import type { Tables } from "./filter-sql.js";

interface EventRow {
  recall_id: string;
  namespace: string;
  key: string;
  kind: UsageEvent["kind"];
  at: Date;
  query: string | null;
  source: UsageEvent["source"];
}

interface RecordRow {
  namespace: string;
  key: string;
  /** JSON text; NULL only in a row `record` has just inserted to lock it. */
  stats: string | null;
  last_used_day: string | null;
  /** JSON text. */
  recent_queries: string;
}

const RECORD_COLUMNS = "r.namespace, r.key, r.stats, r.last_used_day, r.recent_queries";

const identity = (item: { namespace: string; key: string }) => `${item.namespace}\u0000${item.key}`;

function rowToEvent(row: EventRow): UsageEvent {
  const event: UsageEvent = {
    recallId: row.recall_id,
    namespace: row.namespace,
    key: row.key,
    kind: row.kind,
    at: row.at.toISOString(),
    source: row.source,
  };
  if (row.query !== null) event.query = row.query;
  return event;
}

function rowToRecord(row: RecordRow & { stats: string }): UsageRecord {
  const record: UsageRecord = {
    namespace: row.namespace,
    key: row.key,
    stats: JSON.parse(row.stats),
    recentQueries: JSON.parse(row.recent_queries),
  };
  if (row.last_used_day !== null) record.lastUsedDay = row.last_used_day;
  return record;
}

/** The columns of records as arrays, for one `unnest` (a batch is parsed and planned once). */
function recordArrays(records: readonly UsageRecord[]): unknown[] {
  return [
    records.map((record) => record.namespace),
    records.map((record) => record.key),
    records.map((record) => JSON.stringify(record.stats)),
    records.map((record) => record.lastUsedDay ?? null),
    records.map((record) => JSON.stringify(record.recentQueries)),
  ];
}

const RECORD_UNNEST =
  "unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[]) AS v(namespace, key, stats, last_used_day, recent_queries)";

/** The last record given for each `(namespace, key)` (ON CONFLICT cannot touch a row twice). */
function lastOfEachKey(records: readonly UsageRecord[]): UsageRecord[] {
  return [...new Map(records.map((record) => [identity(record), record])).values()];
}

/**
 * `DriverUsage` over the schema's `usage_events` and `usage_records` (schema 9). Nothing here
 * writes to `memories`, so recording usage (on every recall) never changes the recall cache's
 * change token. Records exist only beside their entries (a foreign key with ON DELETE CASCADE):
 * `record` and `put` skip keys that are not stored entries; their events are appended all the
 * same.
 */
export function postgresUsage(db: Database, tables: Tables): DriverUsage {
  const { usageEvents, usageRecords, memories } = tables;
  return {
    /**
     * One transaction of two statements. The first appends the events and, in the same
     * statement, upserts a row for each key that is a stored entry: ON CONFLICT DO UPDATE locks
     * an existing record (and returns it), a new row is inserted empty and locked as well, and
     * `FOR KEY SHARE` on the entries keeps a concurrent delete from removing one meanwhile (it
     * waits, then its cascade removes the record). Rows are taken in (namespace, key) order, so
     * two processes recording the same keys at once wait for each other instead of
     * deadlocking, and the second reads what the first stored: no count is lost. The second
     * statement stores what `update` computed.
     */
    async record(events, update): Promise<void> {
      if (events.length === 0) return;
      const byKey = new Map<string, UsageEvent[]>();
      for (const event of events) {
        const list = byKey.get(identity(event));
        if (list) list.push(event);
        else byKey.set(identity(event), [event]);
      }
      const keys = [...byKey.values()].map((list) => list[0]!);
      await db.transaction("recordUsage", async (client) => {
        const locked = await client.query<RecordRow>(
          `WITH appended AS (
             INSERT INTO ${usageEvents} (recall_id, namespace, key, kind, at, query, source)
             SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::timestamptz[], $6::text[], $7::text[])
           )
           INSERT INTO ${usageRecords} AS r (namespace, key)
           SELECT m.namespace, m.key FROM ${memories} m
             JOIN unnest($8::text[], $9::text[]) AS k(namespace, key)
               ON m.namespace = k.namespace AND m.key = k.key
           ORDER BY 1, 2
           FOR KEY SHARE OF m
           ON CONFLICT (namespace, key) DO UPDATE SET stats = r.stats
           RETURNING ${RECORD_COLUMNS}`,
          [
            events.map((event) => event.recallId),
            events.map((event) => event.namespace),
            events.map((event) => event.key),
            events.map((event) => event.kind),
            events.map((event) => event.at),
            events.map((event) => event.query ?? null),
            events.map((event) => event.source),
            keys.map((key) => key.namespace),
            keys.map((key) => key.key),
          ],
        );
        const records = locked.rows.map((row) => {
          const current =
            row.stats === null ? undefined : rowToRecord({ ...row, stats: row.stats });
          const next = update(current, byKey.get(identity(row)) ?? []);
          // Stored under the locked row's identity, whatever `update` returned.
          return { ...next, namespace: row.namespace, key: row.key };
        });
        if (records.length === 0) return;
        await client.query(
          `UPDATE ${usageRecords} r SET stats = v.stats, last_used_day = v.last_used_day,
             recent_queries = v.recent_queries
           FROM ${RECORD_UNNEST}
           WHERE r.namespace = v.namespace AND r.key = v.key`,
          recordArrays(records),
        );
      });
    },

    async events(namespace, recallId): Promise<UsageEvent[]> {
      const result = await db.query<EventRow>(
        "usageEvents",
        `SELECT recall_id, namespace, key, kind, at, query, source FROM ${usageEvents}
         WHERE namespace = $1 AND recall_id = $2 ORDER BY seq`,
        [namespace, recallId],
      );
      return result.rows.map(rowToEvent);
    },

    async read(namespace, keys): Promise<(UsageRecord | undefined)[]> {
      if (keys.length === 0) return [];
      const result = await db.query<RecordRow & { stats: string }>(
        "usage",
        `SELECT ${RECORD_COLUMNS} FROM ${usageRecords} r
         WHERE r.namespace = $1 AND r.key = ANY($2::text[]) AND r.stats IS NOT NULL`,
        [namespace, keys],
      );
      const found = new Map(result.rows.map((row) => [row.key, rowToRecord(row)]));
      return keys.map((key) => found.get(key));
    },

    /** Keyset pages over the primary key, whose `COLLATE "C"` order is the code-point order. */
    async scan(namespace, after, limit): Promise<UsageRecord[]> {
      const result = await db.query<RecordRow & { stats: string }>(
        "export",
        `SELECT ${RECORD_COLUMNS} FROM ${usageRecords} r
         WHERE r.stats IS NOT NULL
           AND ($1::text IS NULL OR r.namespace = $1)
           AND ($2::text IS NULL OR (r.namespace, r.key) > ($2::text COLLATE "C", $3::text COLLATE "C"))
         ORDER BY r.namespace, r.key LIMIT $4`,
        [namespace ?? null, after?.namespace ?? null, after?.key ?? null, limit],
      );
      return result.rows.map(rowToRecord);
    },

    /** Replaces stored records (import); records of keys that are not stored entries are skipped. */
    async put(records): Promise<void> {
      if (records.length === 0) return;
      await db.query(
        "importEntries",
        `INSERT INTO ${usageRecords} AS r (namespace, key, stats, last_used_day, recent_queries)
         SELECT v.namespace, v.key, v.stats, v.last_used_day, v.recent_queries
         FROM ${RECORD_UNNEST}
           JOIN ${memories} m ON m.namespace = v.namespace AND m.key = v.key
         ORDER BY 1, 2
         FOR KEY SHARE OF m
         ON CONFLICT (namespace, key) DO UPDATE SET stats = excluded.stats,
           last_used_day = excluded.last_used_day, recent_queries = excluded.recent_queries`,
        recordArrays(lastOfEachKey(records)),
      );
    },

    /** Age first, then count: the newest `keep` events (by append order) stay. */
    async prune(olderThan, keep): Promise<number> {
      return db.transaction("pruneUsage", async (client) => {
        const old = await client.query(`DELETE FROM ${usageEvents} WHERE at < $1::timestamptz`, [
          olderThan,
        ]);
        const excess = await client.query(
          `DELETE FROM ${usageEvents} WHERE seq <= (
             SELECT seq FROM ${usageEvents} ORDER BY seq DESC OFFSET $1 LIMIT 1
           )`,
          [keep],
        );
        return (old.rowCount ?? 0) + (excess.rowCount ?? 0);
      });
    },

    async countEvents(): Promise<number> {
      const result = await db.query<{ n: string }>(
        "usage",
        `SELECT count(*) AS n FROM ${usageEvents}`,
      );
      return Number(result.rows[0]!.n);
    },
  };
}
