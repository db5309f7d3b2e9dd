import type { VectorStageHit, VectorStageRequest } from "@memory/api";
import type pg from "pg";
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
  const result = await db.withTunedClient("recall", async (client) => {
    if (!state.iterativeScanChecked) await checkIterativeScan(client, state);
    return client.query<IndexedRow & { distance: number }>(text, params.values);
  });
  return result.rows.map((row) => ({ ...rowToIndexed(row), cosine: 1 - row.distance }));
}

/**
 * The tuned connection ignores a failed `SET hnsw.iterative_scan` (recall still works, but a
 * filtered search may return fewer rows than exist). Once per vector state, the first search
 * checks the setting and, when it is not on, sets it again to record why for healthCheck.
 */
export async function checkIterativeScan(
  client: Pick<pg.PoolClient, "query">,
  state: VectorState,
): Promise<void> {
  state.iterativeScanChecked = true;
  const current = await client.query<{ value: string | null }>(
    "SELECT current_setting('hnsw.iterative_scan', true) AS value",
  );
  if (current.rows[0]?.value === "relaxed_order") return;
  try {
    await client.query("SET hnsw.iterative_scan = relaxed_order");
    delete state.iterativeScanError;
  } catch (error) {
    state.iterativeScanError = `SET hnsw.iterative_scan = relaxed_order failed (${error instanceof Error ? error.message : String(error)}): filtered vector recall may return fewer results than exist; upgrade pgvector to 0.8 or later`;
  }
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
