import type { EntryUpsert, MemoryEntry, TextLanguage, WriteBatch, WriteResult } from "@memory/api";
import type pg from "pg";
import { applyMarks } from "./entry-marks.js";
import { ENTRY_COLUMNS, type EntryRow, rowToEntry } from "./entry-row.js";
import type { Tables } from "./filter-sql.js";
import { removeRelations, upsertRelations } from "./relation-queries.js";
import { entryTerms } from "./search-terms.js";
import { contentHash, encodeVectorArray, Params } from "./sql.js";

/** What a write batch needs to know about the open schema. */
export interface WriteTarget {
  tables: Tables;
  /** Quoted schema name (the write sequence lives there). */
  schema: string;
  language: TextLanguage;
  /** Set when vectors can be written now: the `vector` type and its OID (binary arrays name it). */
  vectors: { type: string; oid: number } | undefined;
  /** A vector table exists, so the vector of changed content must go. */
  staleVectors: boolean;
}

/** Runs one statement of the batch: on one client inside the transaction, or alone. */
export type RunStatement = <Row extends pg.QueryResultRow>(
  text: string,
  values: unknown[],
) => Promise<pg.QueryResult<Row>>;

interface Positioned {
  index: number;
  upsert: EntryUpsert;
}

const identity = (entry: { namespace: string; key: string }) =>
  `${entry.namespace}\u0000${entry.key}`;

/**
 * The statements of a batch's upserts: ON CONFLICT cannot touch one row twice in a statement, so
 * a key repeated in the batch starts a new group (the later entry wins, as written last); within
 * a group, upserts that replace the stored id or creation time go apart from those that keep
 * them, and those that give `pinned` / `snoozedUntil` apart from those that keep the stored
 * marks (the ON CONFLICT clause differs).
 */
export function upsertGroups(upserts: readonly EntryUpsert[]): Positioned[][] {
  const groups: Positioned[][] = [];
  let chunk: Positioned[] = [];
  let keys = new Set<string>();
  const close = () => {
    const byShape = new Map<string, Positioned[]>();
    for (const item of chunk) {
      const { entry } = item.upsert;
      const shape = `${item.upsert.replaceId === true}${item.upsert.replaceCreatedAt === true}${entry.pinned !== undefined}${entry.snoozedUntil !== undefined}`;
      byShape.set(shape, [...(byShape.get(shape) ?? []), item]);
    }
    groups.push(...byShape.values());
    chunk = [];
    keys = new Set();
  };
  upserts.forEach((upsert, index) => {
    const key = identity(upsert.entry);
    if (keys.has(key)) close();
    keys.add(key);
    chunk.push({ index, upsert });
  });
  if (chunk.length > 0) close();
  return groups;
}

/**
 * One statement for a group: each column travels as one array parameter and `unnest` turns
 * them back into rows (so a 5,000-entry import batch is parsed and planned once), upserted on
 * (namespace, key). The vectors are one `vector[]` parameter in PostgreSQL's binary array format,
 * so no float is printed or parsed. An existing entry keeps its id and creation time unless the
 * upsert says the given ones win (an import that carries them); its vector is replaced, or
 * dropped when its content changed and no vector comes with it.
 */
export function upsertStatement(
  group: readonly Positioned[],
  target: WriteTarget,
): { text: string; values: unknown[] } {
  const params = new Params();
  const entries = group.map((item) => item.upsert.entry);
  const column = <T>(pick: (entry: (typeof entries)[number]) => T) => entries.map(pick);
  const terms = entries.map((entry) => entryTerms(entry.key, entry.content, target.language));
  const arrays = [
    `${params.add(column((entry) => entry.id))}::text[]`,
    `${params.add(column((entry) => entry.namespace))}::text[]`,
    `${params.add(column((entry) => entry.key))}::text[]`,
    `${params.add(column((entry) => entry.content))}::text[]`,
    `${params.add(column((entry) => entry.category))}::text[]`,
    `${params.add(column((entry) => entry.sessionId ?? null))}::text[]`,
    `${params.add(column((entry) => entry.importance ?? null))}::float8[]`,
    `${params.add(column((entry) => entry.supersededBy ?? null))}::text[]`,
    `${params.add(column((entry) => recordText(entry.supersessionRecord)))}::text[]`,
    `${params.add(column((entry) => recordText(entry.conflictRecord)))}::text[]`,
    `${params.add(column((entry) => entry.createdAt))}::timestamptz[]`,
    `${params.add(column((entry) => entry.updatedAt))}::timestamptz[]`,
    `${params.add(column((entry) => contentHash(entry.content)))}::text[]`,
    `${params.add(terms.map((term) => term.terms))}::text[]`,
    `${params.add(terms.map((term) => term.count))}::int[]`,
    `${params.add(column((entry) => entry.pinned ?? false))}::boolean[]`,
    `${params.add(column((entry) => entry.snoozedUntil ?? null))}::timestamptz[]`,
  ];
  const vectors = target.vectors;
  const withVectors = vectors !== undefined && group.some((item) => item.upsert.vector);
  if (withVectors) {
    const encoded = encodeVectorArray(
      group.map((item) => item.upsert.vector),
      vectors.oid,
    );
    arrays.push(`${params.add(encoded)}::${vectors.type}[]`);
  }
  const replaceId = group[0]!.upsert.replaceId === true;
  const replaceCreatedAt = group[0]!.upsert.replaceCreatedAt === true;
  // An upsert that gives marks (an import) replaces the stored ones; one without them (a store)
  // leaves those columns out of DO UPDATE, so the row's latest marks stay, even one committed
  // while this statement waited for the row.
  const givesPinned = group[0]!.upsert.entry.pinned !== undefined;
  const givesSnooze = group[0]!.upsert.entry.snoozedUntil !== undefined;
  const { memories } = target.tables;
  const columns =
    "id, namespace, key, content, category, session_id, importance, superseded_by, supersession_record, conflict_record, created_at, updated_at, content_hash, search_terms, term_count, pinned, snoozed_until";
  const given = `${columns}${withVectors ? ", embedding" : ""}`;
  const others = given
    .split(", ")
    .slice(1)
    .map((name) => `given.${name}`)
    .join(", ");
  const ctes = [
    `given (${given}) AS (SELECT * FROM unnest(${arrays.join(", ")}))`,
    // Ids are unique per store: a given id that belongs to another (namespace, key) is dropped,
    // so the entry is a copy (an export imported into another namespace) with an id of its own.
    replaceId
      ? `v AS (
          SELECT CASE WHEN taken.id IS NULL THEN given.id END AS id, ${others}
          FROM given LEFT JOIN ${memories} taken
            ON taken.id = given.id AND (taken.namespace <> given.namespace OR taken.key <> given.key)
        )`
      : "v AS (SELECT * FROM given)",
    `up AS (
      INSERT INTO ${memories} AS m (${columns})
      SELECT ${replaceId ? "coalesce(v.id, e.id, gen_random_uuid()::text)" : "coalesce(e.id, v.id)"}, v.namespace, v.key, v.content, v.category,
        v.session_id, v.importance, v.superseded_by, v.supersession_record, v.conflict_record,
        ${replaceCreatedAt ? "v.created_at" : "coalesce(e.created_at, v.created_at)"}, v.updated_at,
        v.content_hash, v.search_terms, v.term_count, v.pinned, v.snoozed_until
      FROM v LEFT JOIN ${memories} e ON e.namespace = v.namespace AND e.key = v.key
      ON CONFLICT (namespace, key) DO UPDATE SET
        ${replaceId ? "id = excluded.id," : ""}
        ${replaceCreatedAt ? "created_at = excluded.created_at," : ""}
        content = excluded.content, category = excluded.category, session_id = excluded.session_id,
        importance = excluded.importance, superseded_by = excluded.superseded_by,
        supersession_record = excluded.supersession_record, conflict_record = excluded.conflict_record,
        updated_at = excluded.updated_at, updated_seq = nextval('${target.schema}.memory_write_seq'),
        content_hash = excluded.content_hash, search_terms = excluded.search_terms,
        term_count = excluded.term_count
        ${givesPinned ? ", pinned = excluded.pinned" : ""}
        ${givesSnooze ? ", snoozed_until = excluded.snoozed_until" : ""}
      RETURNING ${ENTRY_COLUMNS}, m.content_hash
    )`,
  ];
  if (withVectors) {
    ctes.push(`vec AS (
      INSERT INTO ${target.tables.vectors} (memory_id, content_hash, embedding)
      SELECT up.id, up.content_hash, v.embedding FROM up JOIN v ON v.namespace = up.namespace AND v.key = up.key
      WHERE v.embedding IS NOT NULL
      ON CONFLICT (memory_id) DO UPDATE SET embedding = excluded.embedding, content_hash = excluded.content_hash
    )`);
  }
  if (target.staleVectors) {
    // Matched on the stored row's id as it was before this statement: when an import gives an
    // existing key another id, ON UPDATE CASCADE moves its old vector to the new id only at the
    // end of the statement, where it would collide with the vector inserted above. So the old
    // vector goes when a new one replaces it under another id, or when the content changed
    // without a new one.
    const changed = "x.content_hash <> v.content_hash";
    const replaced = !withVectors
      ? changed
      : replaceId
        ? `(v.embedding IS NOT NULL AND e.id <> coalesce(v.id, e.id)) OR (v.embedding IS NULL AND ${changed})`
        : `v.embedding IS NULL AND ${changed}`;
    ctes.push(`stale AS (
      DELETE FROM ${target.tables.vectors} x USING v JOIN ${memories} e ON e.namespace = v.namespace AND e.key = v.key
      WHERE x.memory_id = e.id AND (${replaced})
    )`);
  }
  return { text: `WITH ${ctes.join(",\n")} SELECT * FROM up`, values: params.values };
}

/** Writes one group and returns its entries by `(namespace, key)`. */
async function writeGroup(
  group: readonly Positioned[],
  target: WriteTarget,
  run: RunStatement,
): Promise<Map<string, MemoryEntry>> {
  const statement = upsertStatement(group, target);
  const result = await run<EntryRow>(statement.text, statement.values);
  return new Map(result.rows.map((row) => [identity(row), rowToEntry(row)]));
}

/** A UNIQUE violation of the primary key: another writer took the given id meanwhile. */
function refusalOf(error: unknown, id: string): string | undefined {
  if ((error as { code?: unknown } | null)?.code !== "23505") return undefined;
  return `id ${id} was taken by another entry while this import ran; import this entry again (it will get an id of its own).`;
}

/**
 * Applies a batch with `run`, which the driver binds to one transaction when the batch takes more
 * than one statement (upserts, supersessions, marks, relations, unrelations, deletes). With `refuseInvalidEntries` (imports), a group that fails on a duplicate id
 * (two new entries of the group giving the same id, or a concurrent import taking it) is rolled
 * back to its savepoint and written entry by entry: each then sees the ids written before it
 * (a copy gets its own), and an entry that still collides is refused alone.
 */
export async function applyWriteBatch(
  batch: WriteBatch,
  target: WriteTarget,
  run: RunStatement,
): Promise<WriteResult> {
  const result: WriteResult = {
    upserted: batch.upserts.map(() => undefined),
    refused: [],
    superseded: [],
    deleted: [],
  };
  const place = (items: readonly Positioned[], written: Map<string, MemoryEntry>) => {
    for (const { index, upsert } of items)
      result.upserted[index] = written.get(identity(upsert.entry));
  };
  for (const group of upsertGroups(batch.upserts)) {
    if (!batch.refuseInvalidEntries) {
      place(group, await writeGroup(group, target, run));
      continue;
    }
    await run("SAVEPOINT upserts", []);
    try {
      place(group, await writeGroup(group, target, run));
      await run("RELEASE SAVEPOINT upserts", []);
      continue;
    } catch (error) {
      await run("ROLLBACK TO SAVEPOINT upserts", []);
      if (!refusalOf(error, "")) throw error;
    }
    // One bad row fails the whole statement: write one by one to find it and keep the rest.
    for (const item of group) {
      await run("SAVEPOINT upsert", []);
      try {
        place([item], await writeGroup([item], target, run));
        await run("RELEASE SAVEPOINT upsert", []);
      } catch (error) {
        await run("ROLLBACK TO SAVEPOINT upsert", []);
        const message = refusalOf(error, item.upsert.entry.id);
        if (!message) throw error;
        result.refused.push({ index: item.index, code: "CONFLICT", message });
      }
    }
  }
  for (const { namespace, key, supersededBy, record } of batch.supersessions) {
    const why = supersededBy === null ? null : recordText(record);
    const updated = await run(
      `UPDATE ${target.tables.memories} SET superseded_by = $3, supersession_record = $4 WHERE namespace = $1 AND key = $2`,
      [namespace, key, supersededBy, why],
    );
    result.superseded.push((updated.rowCount ?? 0) > 0);
  }
  if (batch.marks) result.marked = await applyMarks(target.tables.memories, batch.marks, run);
  if (batch.relations && batch.relations.length > 0)
    result.related = await upsertRelations(
      target.tables.relations,
      target.tables.memories,
      batch.relations,
      run,
    );
  if (batch.unrelations) {
    result.unrelated = [];
    for (const removal of batch.unrelations)
      result.unrelated.push(await removeRelations(target.tables.relations, removal, run));
  }
  for (const { namespace, key } of batch.deletes) {
    // Vectors and relations go with their rows (ON DELETE CASCADE).
    const removed = await run(
      `DELETE FROM ${target.tables.memories} WHERE namespace = $1 AND key = $2`,
      [namespace, key],
    );
    result.deleted.push((removed.rowCount ?? 0) > 0);
  }
  return result;
}

/** How many statements a batch takes (one needs no explicit transaction to be atomic). */
export function statementCount(batch: WriteBatch): number {
  if (batch.refuseInvalidEntries && batch.upserts.length > 0) return Number.POSITIVE_INFINITY;
  return (
    upsertGroups(batch.upserts).length +
    batch.supersessions.length +
    batch.deletes.length +
    (batch.marks?.length ?? 0) +
    // Edge upserts may take several statements (a repeated edge); count them as many.
    (batch.relations?.length ?? 0) +
    (batch.unrelations?.length ?? 0)
  );
}

/** A decision record as the JSON text its column keeps (null: none). */
function recordText(record: object | undefined): string | null {
  return record === undefined ? null : JSON.stringify(record);
}
