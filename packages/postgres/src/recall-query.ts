import { escapeLike, type MergeStrategy, type NormalizedFilter } from "@memory/api";
import { ENTRY_COLUMNS } from "./entry-row.js";
import { Params } from "./sql.js";

/** SQL conditions on alias `m` for a normalized filter; every filter is applied before limits. */
export function filterConditions(filter: NormalizedFilter, params: Params): string[] {
  const conditions: string[] = [];
  if (filter.namespace !== undefined)
    conditions.push(`m.namespace = ${params.add(filter.namespace)}`);
  if (filter.sessionId !== undefined)
    conditions.push(`m.session_id = ${params.add(filter.sessionId)}`);
  if (filter.categories !== undefined)
    conditions.push(`m.category = ANY(${params.add(filter.categories)}::text[])`);
  if (filter.since !== undefined)
    conditions.push(`m.updated_at >= ${params.add(filter.since)}::timestamptz`);
  if (filter.until !== undefined)
    conditions.push(`m.updated_at < ${params.add(filter.until)}::timestamptz`);
  if (!filter.includeSuperseded) conditions.push("m.superseded_by IS NULL");
  return conditions;
}

export function whereClause(conditions: readonly string[]): string {
  return conditions.length === 0 ? "" : `WHERE ${conditions.join(" AND ")}`;
}

export interface Tables {
  memories: string;
  vectors: string;
}

export interface CandidateQuery {
  tables: Tables;
  filter: NormalizedFilter;
  /** Candidate pool size per stage. */
  pool: number;
  /** `to_tsquery` text (terms ORed), or null to skip the keyword stage. */
  tsQuery: string | null;
  /** The terms that select entries, ORed (may leave out very common terms). */
  tsQueryAny: string | null;
  /** The selecting terms ANDed, when there are several: tried first (see {@link candidateQuery}). */
  tsQueryAll: string | null;
  /** Binary pgvector query vector, or null to skip the vector stage. */
  vector: Buffer | null;
  /** Qualified `vector` type and cosine-distance operator. */
  vectorType: string;
  distance: string;
  fusion: { strategy: MergeStrategy; rrfK: number; vectorWeight: number; keywordWeight: number };
}

/**
 * One round trip for both stages and their fusion. Each stage takes its best `pool` candidates
 * under the same filters (keyword: `ts_rank_cd` over the GIN index; vector: HNSW order by cosine
 * distance), numbers them from 0, and the outer query fuses them exactly like `@memory/api`'s
 * `fuseRrf` / `fuseWeighted`: same operations in the same order on float8, so the numbers are
 * bit-identical (a test checks it). ts_rank_cd is float4; it goes through text so the score is
 * the shortest decimal, the same value JavaScript would parse.
 */
export function candidateQuery(query: CandidateQuery): { text: string; values: unknown[] } {
  const { tables, fusion } = query;
  const params = new Params();
  const where = filterConditions(query.filter, params);
  const limit = params.add(query.pool);
  let keyword =
    "SELECT NULL::text AS id, NULL::float8 AS score, NULL::timestamptz AS updated_at WHERE false";
  let keywordCtes = "";
  if (query.tsQuery !== null) {
    const score = params.add(query.tsQuery);
    const any =
      query.tsQueryAny === query.tsQuery ? score : params.add(query.tsQueryAny ?? query.tsQuery);
    const stage = (match: string, gate: string) =>
      `SELECT m.id, ts_rank_cd(m.search, to_tsquery('simple', ${score}))::text::float8 AS score, m.updated_at
         FROM ${tables.memories} m
         ${whereClause([...where, `m.search @@ to_tsquery('simple', ${match})`, ...(gate ? [gate] : [])])}
         ORDER BY score DESC, m.updated_at DESC, m.id LIMIT ${limit}`;
    if (query.tsQueryAll === null) {
      keyword = stage(any, "");
    } else {
      // Conjunctive first: entries holding every term are few even in a million rows, and
      // ranking them is cheap. Only when they cannot fill the pool does the OR query run
      // (ts_rank_cd over every entry holding any term; its gate is a one-time filter, so it is
      // skipped entirely otherwise). Scores always use the OR query, so they do not depend on
      // which path found the entry.
      const all = params.add(query.tsQueryAll);
      keywordCtes = `kw_all AS MATERIALIZED (${stage(all, "")}),
    kw_any AS MATERIALIZED (${stage(any, `(SELECT count(*) FROM kw_all) < ${limit}`)}),`;
      keyword = `SELECT * FROM kw_all WHERE NOT EXISTS (SELECT 1 FROM kw_any)
         UNION ALL SELECT * FROM kw_any`;
    }
  }
  let vector = "SELECT NULL::text AS id, NULL::float8 AS distance WHERE false";
  if (query.vector !== null) {
    const q = `${params.add(query.vector)}::${query.vectorType}`;
    vector = `SELECT m.id, v.embedding ${query.distance} ${q} AS distance
         FROM ${tables.vectors} v JOIN ${tables.memories} m ON m.id = v.memory_id
         ${whereClause(where)}
         ORDER BY v.embedding ${query.distance} ${q} LIMIT ${limit}`;
  }
  let fused: string;
  if (fusion.strategy === "rrf") {
    const k = `${params.add(fusion.rrfK)}::float8`;
    fused = `(coalesce(1::float8 / (${k} + k.rank + 1), 0) + coalesce(1::float8 / (${k} + v.rank + 1), 0))
             / (lists.n * (1::float8 / (${k} + 1)))`;
  } else {
    const vw = `${params.add(fusion.vectorWeight)}::float8`;
    const kw = `${params.add(fusion.keywordWeight)}::float8`;
    fused = `${vw} * greatest(0, coalesce(v.cosine, 0))
             + ${kw} * (CASE WHEN k.score IS NOT NULL AND lists.best > 0 THEN k.score / lists.best ELSE 0 END)`;
  }
  const text = `
    WITH ${keywordCtes}
    kw AS MATERIALIZED (${keyword}),
    kwr AS (SELECT id, score, row_number() OVER (ORDER BY score DESC, updated_at DESC, id) - 1 AS rank FROM kw),
    vec AS MATERIALIZED (${vector}),
    -- HNSW may hand rows back slightly out of order (iterative scans); rank them exactly.
    vecr AS (SELECT id, 1 - distance AS cosine, row_number() OVER (ORDER BY distance, id) - 1 AS rank FROM vec),
    lists AS (
      SELECT (EXISTS (SELECT 1 FROM kw))::int + (EXISTS (SELECT 1 FROM vec))::int AS n,
             greatest(0, (SELECT max(score) FROM kw)) AS best
    ),
    fused AS (
      SELECT coalesce(k.id, v.id) AS id, k.rank AS keyword_rank, k.score AS keyword_score,
             v.rank AS vector_rank, v.cosine, ${fused} AS fused
      FROM kwr k FULL JOIN vecr v ON v.id = k.id CROSS JOIN lists
    )
    SELECT ${ENTRY_COLUMNS}, f.keyword_rank, f.keyword_score, f.vector_rank, f.cosine, f.fused
    FROM fused f JOIN ${tables.memories} m ON m.id = f.id
    ORDER BY f.fused DESC, f.id`;
  return { text, values: params.values };
}

/** The LIKE fallback: entries containing any of the keywords (content or key), best coverage first. */
export function likeQuery(
  tables: Tables,
  filter: NormalizedFilter,
  keywords: readonly string[],
  pool: number,
  params: Params,
): string {
  const where = filterConditions(filter, params);
  const hits = keywords.map((word) => {
    const pattern = params.add(`%${escapeLike(word)}%`);
    return `(m.content ILIKE ${pattern} ESCAPE '\\' OR m.key ILIKE ${pattern} ESCAPE '\\')`;
  });
  const score = `(${hits.map((hit) => `${hit}::int`).join(" + ")})::float8 / ${keywords.length}`;
  return `SELECT ${ENTRY_COLUMNS}, ${score} AS fused FROM ${tables.memories} m
    ${whereClause([...where, `(${hits.join(" OR ")})`])}
    ORDER BY fused DESC, m.updated_at DESC, m.id LIMIT ${params.add(pool)}`;
}
