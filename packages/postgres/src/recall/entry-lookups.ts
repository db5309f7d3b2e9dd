import type { IndexedEntry, MemoryEntry, NormalizedFilter } from "@memory/api";
import { escapeLike } from "@memory/core";
import type { Database } from "../database.js";
import {
  ENTRY_COLUMNS,
  type EntryRow,
  INDEXED_COLUMNS,
  type IndexedRow,
  rowToEntry,
  rowToIndexed,
} from "../entry-row.js";
import { filterConditions, type Tables, whereClause } from "../filter-sql.js";
import { decodeVectorText, Params } from "../sql.js";

/** The most recent entries matching the filter, newest first (write order breaks ties). */
export async function recentEntries(
  db: Database,
  tables: Tables,
  filter: NormalizedFilter,
  limit: number,
): Promise<MemoryEntry[]> {
  const params = new Params();
  const result = await db.query<EntryRow>(
    "recall",
    `SELECT ${ENTRY_COLUMNS} FROM ${tables.memories} m ${whereClause(filterConditions(filter, params))}
     ORDER BY m.updated_at DESC, m.updated_seq DESC LIMIT ${params.add(limit)}`,
    params.values,
  );
  return result.rows.map(rowToEntry);
}

/**
 * Entries whose key or content contains any keyword (ILIKE, with `%`, `_` and `\` escaped),
 * those containing the most keywords first, then the newest.
 */
export async function likeEntries(
  db: Database,
  tables: Tables,
  keywords: readonly string[],
  filter: NormalizedFilter,
  pool: number,
): Promise<MemoryEntry[]> {
  if (keywords.length === 0 || pool <= 0) return [];
  const params = new Params();
  const where = filterConditions(filter, params);
  const hits = keywords.map((word) => {
    const pattern = params.add(`%${escapeLike(word)}%`);
    return `(m.content ILIKE ${pattern} ESCAPE '\\' OR m.key ILIKE ${pattern} ESCAPE '\\')`;
  });
  const found = hits.map((hit) => `${hit}::int`).join(" + ");
  const result = await db.query<EntryRow>(
    "recall",
    `SELECT ${ENTRY_COLUMNS} FROM ${tables.memories} m
     ${whereClause([...where, `(${hits.join(" OR ")})`])}
     ORDER BY ${found} DESC, m.updated_at DESC, m.id LIMIT ${params.add(pool)}`,
    params.values,
  );
  return result.rows.map(rowToEntry);
}

/** The results with their stored embeddings (those that have one). */
export async function withEmbeddings(
  db: Database,
  tables: Tables,
  results: MemoryEntry[],
): Promise<MemoryEntry[]> {
  if (results.length === 0) return results;
  const rows = await db.query<{ memory_id: string; embedding: string }>(
    "recall",
    `SELECT memory_id, embedding::text AS embedding FROM ${tables.vectors} WHERE memory_id = ANY($1::text[])`,
    [results.map((entry) => entry.id)],
  );
  const byId = new Map(rows.rows.map((row) => [row.memory_id, decodeVectorText(row.embedding)]));
  return results.map((entry) => {
    const embedding = byId.get(entry.id);
    return embedding ? { ...entry, embedding } : entry;
  });
}

/**
 * The entries just before and after each given one in its session (same namespace and session,
 * by creation time, then write order), among those that pass the filter: one statement, two
 * index seeks per entry (`memories_session_order`).
 */
export async function sessionNeighbors(
  db: Database,
  tables: Tables,
  ids: readonly string[],
  filter: NormalizedFilter,
): Promise<Map<string, IndexedEntry[]>> {
  const result = new Map<string, IndexedEntry[]>();
  if (ids.length === 0) return result;
  const params = new Params();
  const anchors = params.add(ids);
  const conditions = filterConditions(filter, params);
  const side = (before: boolean) =>
    `(SELECT ${INDEXED_COLUMNS} FROM ${tables.memories} m
      WHERE m.namespace = a.namespace AND m.session_id = a.session_id
        AND (m.created_at, m.created_seq) ${before ? "<" : ">"} (a.created_at, a.created_seq)
        ${conditions.map((condition) => `AND ${condition}`).join(" ")}
      ORDER BY m.created_at ${before ? "DESC" : "ASC"}, m.created_seq ${before ? "DESC" : "ASC"}
      LIMIT 1)`;
  const rows = await db.query<IndexedRow & { anchor: string }>(
    "recall",
    `SELECT a.id AS anchor, n.* FROM ${tables.memories} a
     CROSS JOIN LATERAL (${side(true)} UNION ALL ${side(false)}) n
     WHERE a.id = ANY(${anchors}::text[]) AND a.session_id IS NOT NULL`,
    params.values,
  );
  for (const row of rows.rows) {
    const list = result.get(row.anchor) ?? [];
    list.push(rowToIndexed(row));
    result.set(row.anchor, list);
  }
  return result;
}
