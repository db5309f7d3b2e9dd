import {
  type CountOptions,
  type ExportFilter,
  type GetOptions,
  InvalidInputError,
  type KeyOptions,
  type ListOptions,
  type MemoryEntry,
  normalizeFilter,
  validateKey,
  validateLimit,
  validateNamespace,
} from "@memory/api";
import { filterSql } from "./filter-sql.js";
import type { Opened } from "./opened-store.js";
import { ENTRY_COLUMNS, type EntryRow, toEntry } from "./row-mapping.js";

export const EXPORT_PAGE = 500;
const WITH_VECTOR = `LEFT JOIN memory_vectors v ON v.doc_id = m.doc_id AND v.content_hash = m.content_hash`;

export function getEntry(opened: Opened, key: string, options: GetOptions): MemoryEntry | null {
  const namespace = validateNamespace(options.namespace);
  const row = opened.statements
    .get(
      `SELECT ${ENTRY_COLUMNS}, ${options.withEmbedding ? "v.embedding" : "NULL AS embedding"} FROM memories m ${WITH_VECTOR} WHERE m.namespace = ? AND m.key = ?`,
    )
    .get(namespace, validateKey(key)) as EntryRow | undefined;
  return row ? toEntry(row) : null;
}

/** Sets `embedding` on each entry that has a vector for its current content. */
export function attachEmbeddings(opened: Opened, entries: MemoryEntry[]): void {
  const statement = opened.statements.get(
    `SELECT v.embedding FROM memories m JOIN memory_vectors v ON v.doc_id = m.doc_id AND v.content_hash = m.content_hash WHERE m.id = ?`,
  );
  for (const entry of entries) {
    const row = statement.get(entry.id) as EntryRow | undefined;
    if (row?.embedding)
      entry.embedding = toEntry({ ...(row as EntryRow), embedding: row.embedding }).embedding!;
  }
}

export function listEntries(opened: Opened, options: ListOptions): MemoryEntry[] {
  const limit = validateLimit(options.limit, 100, Number.MAX_SAFE_INTEGER);
  const offset = options.offset ?? 0;
  if (!Number.isInteger(offset) || offset < 0)
    throw new InvalidInputError(`offset must be an integer >= 0, got ${offset}.`);
  const { where, params } = filterSql(normalizeFilter(options));
  if (limit === 0) return [];
  const rows = opened.statements
    .get(
      `SELECT ${ENTRY_COLUMNS}, ${options.withEmbeddings ? "v.embedding" : "NULL AS embedding"} FROM memories m ${WITH_VECTOR}
       WHERE ${where} ORDER BY m.updated_at DESC, m.doc_id DESC LIMIT ? OFFSET ?`,
    )
    .all(...params, limit, offset) as EntryRow[];
  return rows.map(toEntry);
}

export function countEntries(opened: Opened, options: CountOptions): number {
  const { where, params } = filterSql(normalizeFilter(options));
  return (
    opened.statements.get(`SELECT count(*) AS n FROM memories m WHERE ${where}`).get(...params) as {
      n: number;
    }
  ).n;
}

export function topCoreEntries(opened: Opened, limit: number, options: KeyOptions): MemoryEntry[] {
  const count = validateLimit(limit, 10);
  const namespace = validateNamespace(options.namespace);
  const rows = opened.statements
    .get(
      `SELECT ${ENTRY_COLUMNS} FROM memories m WHERE m.namespace = ? AND m.category = 'core' AND m.superseded_by IS NULL
       ORDER BY m.importance IS NULL, m.importance DESC, m.updated_at DESC, m.doc_id DESC LIMIT ?`,
    )
    .all(namespace, count) as EntryRow[];
  return rows.map(toEntry);
}

export interface ExportQuery {
  sql: string;
  params: unknown[];
}

/** Keyset-paged export query: all namespaces and superseded entries unless filtered. */
export function exportQuery(filter: ExportFilter): ExportQuery {
  const normalized = normalizeFilter(filter, {
    allNamespacesByDefault: true,
    includeSupersededByDefault: true,
  });
  const { where, params } = filterSql(normalized);
  const sql = `SELECT ${ENTRY_COLUMNS}, ${filter.withEmbeddings ? "v.embedding" : "NULL AS embedding"} FROM memories m ${WITH_VECTOR}
    WHERE ${where} AND (m.created_at, m.doc_id) > (?, ?) ORDER BY m.created_at, m.doc_id LIMIT ?`;
  return { sql, params };
}

/** The next EXPORT_PAGE rows after `(created_at, doc_id)`. */
export function exportPage(
  opened: Opened,
  query: ExportQuery,
  after: [string, number],
): EntryRow[] {
  return opened.statements
    .get(query.sql)
    .all(...query.params, after[0], after[1], EXPORT_PAGE) as EntryRow[];
}
