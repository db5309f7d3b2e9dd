import type { EntryKey, MemoryEntry, NormalizedFilter, ScanPage, ScanRequest } from "@memory/api";
import type { Database } from "./database.js";
import { ENTRY_COLUMNS, type EntryRow, rowToEntry } from "./entry-row.js";
import { filterConditions, type Tables, whereClause } from "./filter-sql.js";
import { Params } from "./sql.js";

/** Where the entry reads run: the pool, the tables, and whether a vector table exists. */
export interface ReadTarget {
  db: Database;
  tables: Tables;
  /** Embeddings can only be attached when the vector table exists. */
  hasVectorTable: boolean;
}

function selectEntries(
  target: ReadTarget,
  withEmbeddings: boolean | undefined,
  extraColumns = "",
): string {
  const embeddings = withEmbeddings === true && target.hasVectorTable;
  return `SELECT ${ENTRY_COLUMNS}${extraColumns}${embeddings ? ", v.embedding::text AS embedding" : ""}
    FROM ${target.tables.memories} m
    ${embeddings ? `LEFT JOIN ${target.tables.vectors} v ON v.memory_id = m.id` : ""}`;
}

/** Entries by `(namespace, key)`, position by position, in one statement. */
export async function readEntries(
  target: ReadTarget,
  keys: readonly EntryKey[],
  withEmbeddings: boolean | undefined,
): Promise<(MemoryEntry | undefined)[]> {
  if (keys.length === 0) return [];
  const result = await target.db.query<EntryRow>(
    "get",
    `${selectEntries(target, withEmbeddings)}
     WHERE (m.namespace, m.key) IN (SELECT * FROM unnest($1::text[], $2::text[]))`,
    [keys.map((key) => key.namespace), keys.map((key) => key.key)],
  );
  const found = new Map(result.rows.map((row) => [`${row.namespace}\u0000${row.key}`, row]));
  return keys.map((key) => {
    const row = found.get(`${key.namespace}\u0000${key.key}`);
    return row ? rowToEntry(row) : undefined;
  });
}

/** `(created_at, created_seq)` of the last exported row: export pages continue after it. */
interface ExportCursor {
  created: Date;
  seq: string;
}

/**
 * One page in the requested order; ties break by write order (`updated_seq`, `created_seq`).
 * Export pages use keyset pagination on (created_at, created_seq): each page is one short
 * query, so a million entries stream without a long-held cursor or an OFFSET scan.
 */
export async function scanEntries(target: ReadTarget, request: ScanRequest): Promise<ScanPage> {
  const params = new Params();
  const conditions = filterConditions(request.filter, params);
  const { order } = request;
  let orderBy: string;
  if (order.by === "oldest") {
    const after = request.after as ExportCursor | undefined;
    if (after) {
      conditions.push(
        `(m.created_at, m.created_seq) > (${params.add(after.created)}::timestamptz, ${params.add(after.seq)}::bigint)`,
      );
    }
    orderBy = "m.created_at, m.created_seq";
  } else if (order.by === "newest") {
    orderBy = "m.updated_at DESC, m.updated_seq DESC";
  } else {
    orderBy = `coalesce(m.importance, ${params.add(order.unsetImportance)}::float8) DESC, m.updated_at DESC, m.updated_seq DESC`;
  }
  const result = await target.db.query<EntryRow & { created_seq: string }>(
    order.by === "oldest" ? "export" : "list",
    `${selectEntries(target, request.withEmbeddings, ", m.created_seq")}
     ${whereClause(conditions)}
     ORDER BY ${orderBy} LIMIT ${params.add(request.limit)} OFFSET ${params.add(request.offset ?? 0)}`,
    params.values,
  );
  const last = result.rows.at(-1);
  const next: ExportCursor | undefined =
    order.by === "oldest" && last && result.rows.length === request.limit
      ? { created: last.created_at, seq: last.created_seq }
      : undefined;
  return { entries: result.rows.map(rowToEntry), ...(next ? { next } : {}) };
}

export async function countEntries(target: ReadTarget, filter: NormalizedFilter): Promise<number> {
  const params = new Params();
  const result = await target.db.query<{ n: string }>(
    "count",
    `SELECT count(*) AS n FROM ${target.tables.memories} m ${whereClause(filterConditions(filter, params))}`,
    params.values,
  );
  return Number(result.rows[0]!.n);
}
