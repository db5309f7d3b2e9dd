import type { VectorStageHit, VectorStageRequest } from "@memory/api";
import type { Database } from "../database.js";
import { INDEXED_COLUMNS, type IndexedRow, rowToIndexed } from "../entry-row.js";
import { filterConditions, type Tables, whereClause } from "../filter-sql.js";
import { encodeVector, Params } from "../sql.js";
import type { VectorState } from "../vector-store.js";

/**
 * The `pool` entries nearest to the query vector under the whole filter, by the HNSW index
 * (on a connection tuned with `hnsw.ef_search` and, on pgvector 0.8+, iterative scans, so a
 * filter never starves the result). The cosine of each is exact: `1 - (embedding <=> q)`.
 */
export async function vectorHits(
  db: Database,
  tables: Tables,
  state: VectorState,
  request: VectorStageRequest,
): Promise<VectorStageHit[]> {
  const params = new Params();
  const query = `${params.add(encodeVector(request.vector))}::${state.vectorType}`;
  const where = whereClause(filterConditions(request.filter, params));
  const text = `SELECT ${INDEXED_COLUMNS}, v.embedding ${state.distance} ${query} AS distance
    FROM ${tables.vectors} v JOIN ${tables.memories} m ON m.id = v.memory_id
    ${where}
    ORDER BY v.embedding ${state.distance} ${query} LIMIT ${params.add(request.pool)}`;
  const result = await db.withTunedClient("recall", (client) =>
    client.query<IndexedRow & { distance: number }>(text, params.values),
  );
  return result.rows.map((row) => ({ ...rowToIndexed(row), cosine: 1 - row.distance }));
}

/** Exact cosines of the given entries that have a vector (computed like {@link vectorHits}). */
export async function cosines(
  db: Database,
  tables: Tables,
  state: VectorState,
  ids: readonly string[],
  vector: Float32Array,
): Promise<Map<string, number>> {
  if (ids.length === 0) return new Map();
  const result = await db.query<{ id: string; distance: number }>(
    "recall",
    `SELECT memory_id AS id, embedding ${state.distance} $1::${state.vectorType} AS distance
     FROM ${tables.vectors} WHERE memory_id = ANY($2::text[])`,
    [encodeVector(vector), ids],
  );
  return new Map(result.rows.map((row) => [row.id, 1 - row.distance]));
}
