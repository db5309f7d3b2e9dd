import type { Relation, RelationQuery, RelationRemoval, RelationUpsert } from "@memory/api";
import type pg from "pg";
import { Params } from "./sql.js";

/** Runs one statement (inside the batch's transaction when there is one). */
type Run = <Row extends pg.QueryResultRow>(
  text: string,
  values: unknown[],
) => Promise<pg.QueryResult<Row>>;

interface RelationRow {
  namespace: string;
  from_key: string;
  to_key: string;
  type: string;
  weight: number;
  metadata: string | null;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = "namespace, from_key, to_key, type, weight, metadata, created_at, updated_at";

const identity = (r: { namespace: string; from: string; to: string; type: string }) =>
  [r.namespace, r.from, r.to, r.type].join("\u0000");

function toRelation(row: RelationRow): Relation {
  const relation: Relation = {
    namespace: row.namespace,
    from: row.from_key,
    to: row.to_key,
    type: row.type,
    weight: row.weight,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
  if (row.metadata !== null) relation.metadata = JSON.parse(row.metadata);
  return relation;
}

/**
 * Statement groups of a batch's edge upserts: ON CONFLICT cannot touch one row twice in a
 * statement, so a repeated edge starts a new group; upserts whose createdAt wins go apart.
 */
function groups(upserts: readonly RelationUpsert[]): { index: number; upsert: RelationUpsert }[][] {
  const result: { index: number; upsert: RelationUpsert }[][] = [];
  let current: { index: number; upsert: RelationUpsert }[] = [];
  let seen = new Set<string>();
  let replace: boolean | undefined;
  upserts.forEach((upsert, index) => {
    const id = identity(upsert.relation);
    const replaces = upsert.replaceCreatedAt === true;
    if (seen.has(id) || (replace !== undefined && replace !== replaces)) {
      result.push(current);
      current = [];
      seen = new Set();
    }
    seen.add(id);
    replace = replaces;
    current.push({ index, upsert });
  });
  if (current.length > 0) result.push(current);
  return result;
}

/**
 * Writes edge upserts, one `unnest` statement per group, only where both entries exist; the
 * stronger weight stays, given metadata replaces, createdAt stays unless the upsert's wins.
 * Returns each upsert's stored edge (undefined: an endpoint is missing).
 */
export async function upsertRelations(
  table: string,
  memories: string,
  upserts: readonly RelationUpsert[],
  run: Run,
): Promise<(Relation | undefined)[]> {
  const related: (Relation | undefined)[] = upserts.map(() => undefined);
  for (const group of groups(upserts)) {
    const params = new Params();
    const column = <T>(pick: (relation: Relation) => T) =>
      group.map((item) => pick(item.upsert.relation));
    const replace = group[0]!.upsert.replaceCreatedAt === true;
    const text = `
      INSERT INTO ${table} AS r (${COLUMNS})
      SELECT g.namespace, g.from_key, g.to_key, g.type, g.weight, g.metadata, g.created_at, g.updated_at
      FROM unnest(${params.add(column((r) => r.namespace))}::text[], ${params.add(column((r) => r.from))}::text[],
        ${params.add(column((r) => r.to))}::text[], ${params.add(column((r) => r.type))}::text[],
        ${params.add(column((r) => r.weight))}::float8[],
        ${params.add(column((r) => (r.metadata === undefined ? null : JSON.stringify(r.metadata))))}::text[],
        ${params.add(column((r) => r.createdAt))}::timestamptz[], ${params.add(column((r) => r.updatedAt))}::timestamptz[])
        AS g(namespace, from_key, to_key, type, weight, metadata, created_at, updated_at)
      WHERE EXISTS (SELECT 1 FROM ${memories} m WHERE m.namespace = g.namespace AND m.key = g.from_key)
        AND EXISTS (SELECT 1 FROM ${memories} m WHERE m.namespace = g.namespace AND m.key = g.to_key)
      ON CONFLICT (namespace, from_key, to_key, type) DO UPDATE SET
        weight = greatest(r.weight, excluded.weight),
        metadata = coalesce(excluded.metadata, r.metadata),
        ${replace ? "created_at = excluded.created_at," : ""}
        updated_at = excluded.updated_at
      RETURNING ${COLUMNS}`;
    const result = await run<RelationRow>(text, params.values);
    const stored = new Map(
      result.rows.map((row) => {
        const relation = toRelation(row);
        return [identity(relation), relation];
      }),
    );
    for (const { index, upsert } of group) related[index] = stored.get(identity(upsert.relation));
  }
  return related;
}

export async function removeRelations(
  table: string,
  removal: RelationRemoval,
  run: Run,
): Promise<number> {
  const result = await run(
    `DELETE FROM ${table} WHERE namespace = $1 AND from_key = $2 AND to_key = $3 AND ($4::text IS NULL OR type = $4)`,
    [removal.namespace, removal.from, removal.to, removal.type ?? null],
  );
  return result.rowCount ?? 0;
}

/** The edges of the query's keys, in the contract's order. */
export async function findRelations(
  table: string,
  query: RelationQuery,
  run: Run,
): Promise<Relation[]> {
  const sides: string[] = [];
  if (query.direction !== "in") sides.push("from_key = ANY($2::text[])");
  if (query.direction !== "out") sides.push("to_key = ANY($2::text[])");
  const result = await run<RelationRow>(
    `SELECT ${COLUMNS} FROM ${table}
     WHERE namespace = $1 AND (${sides.join(" OR ")}) AND ($3::text[] IS NULL OR type = ANY($3::text[]))
     ORDER BY weight DESC, updated_at DESC, from_key COLLATE "C", to_key COLLATE "C", type COLLATE "C"
     LIMIT $4`,
    [query.namespace, [...query.keys], query.types ? [...query.types] : null, query.limit ?? null],
  );
  return result.rows.map(toRelation);
}
