import type { EntryKey, MemoryEntry, NormalizedFilter, ScanPage, ScanRequest } from "@memory/api";
import { filterSql } from "./filter-sql.js";
import type { Opened } from "./opened-store.js";
import { ENTRY_COLUMNS, type EntryRow, toEntry } from "./row-mapping.js";

const WITH_VECTOR = `LEFT JOIN memory_vectors v ON v.doc_id = m.doc_id AND v.content_hash = m.content_hash`;
const embeddingColumn = (withEmbeddings: boolean | undefined) =>
  withEmbeddings ? "v.embedding" : "NULL AS embedding";

/**
 * From this many keys on, a namespace's keys are read by one statement (a bound JSON array,
 * `json_each`) instead of one lookup each: a key's kept versions are 100 slots, read on every
 * forget and every store that changes a key's content, and 100 lookups cost about 0.3 ms.
 */
export const BATCH_READ_MIN = 8;

/** A key `json_each` gives back unchanged: validated keys always are (no NUL, well-formed). */
const survivesJson = ({ key }: EntryKey) => !key.includes("\u0000") && key.isWellFormed();

export function readEntries(
  opened: Opened,
  keys: readonly EntryKey[],
  withEmbeddings: boolean | undefined,
): (MemoryEntry | undefined)[] {
  const select = `SELECT ${ENTRY_COLUMNS}, ${embeddingColumn(withEmbeddings)} FROM memories m ${WITH_VECTOR}`;
  if (keys.length < BATCH_READ_MIN || !keys.every(survivesJson)) {
    const statement = opened.statements.get(`${select} WHERE m.namespace = ? AND m.key = ?`);
    return keys.map(({ namespace, key }) => {
      const row = statement.get(namespace, key) as EntryRow | undefined;
      return row ? toEntry(row) : undefined;
    });
  }
  const keysOf = new Map<string, Set<string>>();
  for (const { namespace, key } of keys) {
    const set = keysOf.get(namespace) ?? new Set<string>();
    keysOf.set(namespace, set.add(key));
  }
  const statement = opened.statements.get(
    `${select} WHERE m.namespace = ? AND m.key IN (SELECT value FROM json_each(?))`,
  );
  const found = new Map<string, Map<string, EntryRow>>();
  opened.statements.snapshot(() => {
    for (const [namespace, names] of keysOf) {
      const rows = statement.all(namespace, JSON.stringify([...names])) as EntryRow[];
      found.set(namespace, new Map(rows.map((row) => [row.key, row])));
    }
  });
  // A key asked twice gets two entries, as the lookups gave.
  return keys.map(({ namespace, key }) => {
    const row = found.get(namespace)?.get(key);
    return row ? toEntry(row) : undefined;
  });
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

/** `(created_at, doc_id)` of the last exported row: export pages continue after it. */
type ExportCursor = [string, number];

/** One page in the requested order; ties break by doc id (write order). */
export function scanEntries(opened: Opened, request: ScanRequest): ScanPage {
  const { where, params } = filterSql(request.filter);
  const select = `SELECT ${ENTRY_COLUMNS}, ${embeddingColumn(request.withEmbeddings)} FROM memories m ${WITH_VECTOR}`;
  let rows: EntryRow[];
  const { order } = request;
  if (order.by === "oldest") {
    const [createdAt, docId] = (request.after as ExportCursor | undefined) ?? ["", -1];
    rows = opened.statements
      .get(
        `${select} WHERE ${where} AND (m.created_at, m.doc_id) > (?, ?) ORDER BY m.created_at, m.doc_id LIMIT ? OFFSET ?`,
      )
      .all(...params, createdAt, docId, request.limit, request.offset ?? 0) as EntryRow[];
  } else if (order.by === "newest") {
    rows = opened.statements
      .get(`${select} WHERE ${where} ORDER BY m.updated_at DESC, m.doc_id DESC LIMIT ? OFFSET ?`)
      .all(...params, request.limit, request.offset ?? 0) as EntryRow[];
  } else {
    rows = opened.statements
      .get(
        `${select} WHERE ${where} ORDER BY coalesce(m.importance, ?) DESC, m.updated_at DESC, m.doc_id DESC LIMIT ? OFFSET ?`,
      )
      .all(...params, order.unsetImportance, request.limit, request.offset ?? 0) as EntryRow[];
  }
  const last = rows.at(-1);
  const next: ExportCursor | undefined =
    order.by === "oldest" && last && rows.length === request.limit
      ? [last.created_at, last.doc_id]
      : undefined;
  return { entries: rows.map(toEntry), ...(next ? { next } : {}) };
}

export function countEntries(opened: Opened, filter: NormalizedFilter): number {
  const { where, params } = filterSql(filter);
  return (
    opened.statements.get(`SELECT count(*) AS n FROM memories m WHERE ${where}`).get(...params) as {
      n: number;
    }
  ).n;
}
