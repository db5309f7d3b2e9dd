import type { Relation, RelationQuery, RelationRemoval, RelationUpsert } from "@memory/api";
import type { StatementCache } from "./statement-cache.js";

interface RelationRow {
  namespace: string;
  from_key: string;
  to_key: string;
  type: string;
  weight: number;
  metadata: string | null;
  created_at: string;
  updated_at: string;
}

const COLUMNS = "namespace, from_key, to_key, type, weight, metadata, created_at, updated_at";

// Only when both entries exist (after the batch's upserts); the stronger weight stays, given
// metadata replaces, created_at stays unless the upsert carries one that wins (an import).
const UPSERT = `
INSERT INTO relations (${COLUMNS})
SELECT @namespace, @from_key, @to_key, @type, @weight, @metadata, @created_at, @updated_at
WHERE EXISTS (SELECT 1 FROM memories WHERE namespace = @namespace AND key = @from_key)
  AND EXISTS (SELECT 1 FROM memories WHERE namespace = @namespace AND key = @to_key)
ON CONFLICT (namespace, from_key, to_key, type) DO UPDATE SET
  weight = max(relations.weight, excluded.weight),
  metadata = coalesce(excluded.metadata, relations.metadata),
  created_at = CASE WHEN @replace_created_at THEN excluded.created_at ELSE relations.created_at END,
  updated_at = excluded.updated_at
RETURNING ${COLUMNS}`;

function toRelation(row: RelationRow): Relation {
  const relation: Relation = {
    namespace: row.namespace,
    from: row.from_key,
    to: row.to_key,
    type: row.type,
    weight: row.weight,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
  if (row.metadata !== null) relation.metadata = JSON.parse(row.metadata);
  return relation;
}

/** One edge upsert inside the caller's transaction; undefined when an endpoint is missing. */
export function upsertRelation(
  statements: StatementCache,
  { relation, replaceCreatedAt }: RelationUpsert,
): Relation | undefined {
  const row = statements.get(UPSERT).get({
    namespace: relation.namespace,
    from_key: relation.from,
    to_key: relation.to,
    type: relation.type,
    weight: relation.weight,
    metadata: relation.metadata === undefined ? null : JSON.stringify(relation.metadata),
    created_at: relation.createdAt,
    updated_at: relation.updatedAt,
    replace_created_at: replaceCreatedAt ? 1 : 0,
  }) as RelationRow | undefined;
  return row ? toRelation(row) : undefined;
}

export function removeRelations(statements: StatementCache, removal: RelationRemoval): number {
  if (removal.type === undefined) {
    return statements
      .get("DELETE FROM relations WHERE namespace = ? AND from_key = ? AND to_key = ?")
      .run(removal.namespace, removal.from, removal.to).changes;
  }
  return statements
    .get("DELETE FROM relations WHERE namespace = ? AND from_key = ? AND to_key = ? AND type = ?")
    .run(removal.namespace, removal.from, removal.to, removal.type).changes;
}

/**
 * Edges of the query's keys. The keys and types travel as JSON arrays read by `json_each`, so
 * the statement text never depends on the input (one cached statement per direction). Each
 * direction is its own indexed SELECT (primary key for `from_key`, `relations_to` for `to_key`),
 * joined by UNION: one `from_key IN ... OR to_key IN ...` made SQLite scan the whole table
 * (bench:relations, 10k edges: 10.9 ms per relations(key)).
 */
export function findRelations(statements: StatementCache, query: RelationQuery): Relation[] {
  // Every recall asks for its results' `contradicts` edges (orderContradictions in @memory/core),
  // and most namespaces have no edge at all: one primary-key seek answers that, where the
  // statement below (two json_each lists, a UNION and a sort) cost about ten times as much.
  const any = statements
    .get("SELECT EXISTS (SELECT 1 FROM relations WHERE namespace = ?)")
    .pluck()
    .get(query.namespace);
  if (any === 0) return [];
  // INDEXED BY: without ANALYZE statistics SQLite prefers the primary key's namespace prefix to
  // relations_to for the to_key side, which reads the whole namespace (bench:relations: 0.9 ms).
  const side = (
    column: string,
  ) => `SELECT ${COLUMNS} FROM relations${column === "to_key" ? " INDEXED BY relations_to" : ""}
    WHERE namespace = @namespace AND ${column} IN (SELECT value FROM json_each(@keys))
      AND (@types IS NULL OR type IN (SELECT value FROM json_each(@types)))`;
  const sides: string[] = [];
  if (query.direction !== "in") sides.push(side("from_key"));
  if (query.direction !== "out") sides.push(side("to_key"));
  const sql = `${sides.join(" UNION ")}
    ORDER BY weight DESC, updated_at DESC, from_key, to_key, type
    LIMIT @limit`;
  const rows = statements.get(sql).all({
    namespace: query.namespace,
    keys: JSON.stringify(query.keys),
    types: query.types === undefined ? null : JSON.stringify(query.types),
    limit: query.limit ?? -1,
  }) as RelationRow[];
  return rows.map(toRelation);
}
