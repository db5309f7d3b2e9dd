import type { Database } from "./database.js";
import type { Tables } from "./filter-sql.js";

/**
 * The planner's statistics of `memories` are taken again after an import once the table holds
 * this many times the rows it held when they were last taken (or this many times fewer). The
 * planner already scales the row count it last saw by the table's current size in pages, so
 * what goes stale is slow; doubling bounds the cost: an import of 100,000 rows in requests of
 * 1,000 (the server bench) analyzes 7 times (at 1k, 2k, 4k, ... 64k rows), about 1.5 s in all
 * on the 2-core test machine, where one ANALYZE of 100,000 entries takes 0.5 s.
 */
export const REANALYZE_GROWTH = 2;

export interface ImportStatisticsTarget {
  db: Database;
  tables: Tables;
  /** Quoted schema name. */
  schema: string;
}

/**
 * What an import leaves behind for the queries that follow it, done before the import returns:
 *
 * - The GIN index's pending list merged into the index. Rows inserted while the index exists
 *   (every import but the first batch into an empty table) go to that unsorted list
 *   (`fastupdate`) until a VACUUM or an insert that fills `gin_pending_list_limit` (4 MB)
 *   merges it, and every search reads the whole list: 9,000 rows imported after the first
 *   1,000 made a term's lookup cost 5-6 ms at 10k entries instead of 0.1.
 * - The planner's statistics of `memories` (ANALYZE) when it has none or the table has grown
 *   {@link REANALYZE_GROWTH} times since. Without them PostgreSQL guesses that `namespace = $1`
 *   keeps 0.5% of the rows and reads the whole namespace through the namespace index instead of
 *   the GIN index: a recall at 100k entries took 1.8 s (p50, 16 clients) instead of 0.1 s.
 *   Autovacuum would take them within a minute or so when it runs (it is off on some servers),
 *   but an import writes most of a table in seconds and recalls follow at once.
 *
 * Both need the role to own the table, as the import's index rebuilds do.
 */
export async function refreshAfterImport(target: ImportStatisticsTarget): Promise<void> {
  const { db, tables, schema } = target;
  await db.query("importEntries", "SELECT gin_clean_pending_list(to_regclass($1))", [
    `${schema}.memories_search`,
  ]);
  const state = await db.query<{ counted: number; entries: number; analyzed: boolean }>(
    "importEntries",
    `SELECT c.reltuples::float8 AS counted,
       (SELECT coalesce(sum(s.documents), 0) FROM ${tables.namespaceStats} s)::float8 AS entries,
       EXISTS (SELECT 1 FROM pg_stats p WHERE p.schemaname = n.nspname AND p.tablename = c.relname)
         AS analyzed
     FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE c.oid = to_regclass($1)`,
    [tables.memories],
  );
  const row = state.rows[0];
  if (!row || !needsAnalyze(row)) return;
  await db.query("importEntries", `ANALYZE ${tables.memories}`);
}

/**
 * `counted` is `pg_class.reltuples`: the rows ANALYZE (or VACUUM, or an index build) last saw,
 * -1 when never counted. An index build counts rows without taking statistics, hence `analyzed`.
 */
export function needsAnalyze(table: {
  counted: number;
  entries: number;
  analyzed: boolean;
}): boolean {
  if (table.entries === 0) return false;
  if (!table.analyzed || table.counted <= 0) return true;
  return (
    table.entries >= table.counted * REANALYZE_GROWTH ||
    table.entries * REANALYZE_GROWTH <= table.counted
  );
}
