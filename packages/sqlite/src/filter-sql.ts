import type { Category, NormalizedFilter } from "@memory/api";
import type { StatementCache } from "./statement-cache.js";

/** A WHERE fragment over the alias `m` (memories) and its bound parameters. */
export interface SqlFilter {
  where: string;
  params: unknown[];
}

/**
 * Turns a normalized filter into SQL. Only fixed fragments are concatenated; every value is a
 * bound parameter (categories travel as one JSON array through json_each).
 */
export function filterSql(filter: NormalizedFilter): SqlFilter {
  const clauses: string[] = [];
  const params: unknown[] = [];
  if (filter.namespace !== undefined) {
    clauses.push("m.namespace = ?");
    params.push(filter.namespace);
  }
  if (filter.sessionId !== undefined) {
    clauses.push("m.session_id = ?");
    params.push(filter.sessionId);
  }
  if (filter.categories?.length === 1) {
    // One category as an equality: the planner can then walk `memories_category_updated`
    // (schema v11) in updated_at order instead of the whole namespace (an IN list cannot).
    clauses.push("m.category = ?");
    params.push(filter.categories[0]);
  } else if (filter.categories !== undefined) {
    clauses.push("m.category IN (SELECT value FROM json_each(?))");
    params.push(JSON.stringify(filter.categories));
  }
  if (filter.excludeCategories !== undefined && filter.excludeCategories.length > 0) {
    clauses.push("m.category NOT IN (SELECT value FROM json_each(?))");
    params.push(JSON.stringify(filter.excludeCategories));
  }
  if (filter.since !== undefined) {
    clauses.push("m.updated_at >= ?");
    params.push(filter.since);
  }
  if (filter.until !== undefined) {
    clauses.push("m.updated_at < ?");
    params.push(filter.until);
  }
  if (!filter.includeSuperseded) clauses.push("m.superseded_by IS NULL");
  if (filter.awakeAt !== undefined) {
    // The snoozed rows' doc ids, read once per statement from the partial index
    // `memories_snoozed` (schema v10): the condition needs no column of the row, so the
    // covering indexes that answer the rest of the filter (schema v8) still do.
    clauses.push(
      "m.doc_id NOT IN (SELECT doc_id FROM memories WHERE snoozed_until IS NOT NULL AND snoozed_until > ?)",
    );
    params.push(filter.awakeAt);
  }
  return { where: clauses.length > 0 ? clauses.join(" AND ") : "1", params };
}

/**
 * True when the filter narrows more than namespace + superseded (the in-memory index knows only
 * namespaces). `awakeAt` does not count: snoozed entries are few, and every stage's SQL leaves
 * them out of what the index proposes (the vector stage asks again when too few pass).
 */
export function hasNarrowFilter(filter: NormalizedFilter): boolean {
  return (
    filter.sessionId !== undefined ||
    filter.categories !== undefined ||
    (filter.excludeCategories !== undefined && filter.excludeCategories.length > 0) ||
    filter.since !== undefined ||
    filter.until !== undefined
  );
}

/**
 * The filter without the conditions that exclude nothing: the excluded categories its namespace
 * holds no entry of, and `awakeAt` when no entry is snoozed past it. A recall leaves the
 * knowledge graph's `triple` and `entity` entries and snoozed entries out by default, and most
 * namespaces have none of them: a condition that excludes nothing must cost neither a plan for
 * a narrowed filter (`hasNarrowFilter`: FTS5's ranked ids first, the vector index rather than
 * an exact scan) nor its subqueries in every statement. One statement of index seeks
 * (`memories_category` per excluded category, the partial `memories_snoozed`), not cached, so
 * an entry stored or snoozed a moment ago counts at once.
 */
export function effectiveFilter<F extends NormalizedFilter>(
  statements: StatementCache,
  filter: F,
): F {
  const excluded =
    filter.namespace !== undefined && (filter.excludeCategories?.length ?? 0) > 0
      ? filter.excludeCategories!
      : undefined;
  if (excluded === undefined && filter.awakeAt === undefined) return filter;
  const [present, snoozed] = statements
    .get(
      `SELECT
         (SELECT json_group_array(excluded.value) FROM json_each(?) AS excluded WHERE EXISTS
           (SELECT 1 FROM memories m WHERE m.namespace = ? AND m.category = excluded.value)),
         EXISTS (SELECT 1 FROM memories WHERE snoozed_until IS NOT NULL AND snoozed_until > ?)`,
    )
    .raw(true)
    .get(JSON.stringify(excluded ?? []), filter.namespace ?? null, filter.awakeAt ?? null) as [
    string,
    number,
  ];
  const kept = JSON.parse(present) as Category[];
  const dropExclusions = excluded !== undefined && kept.length < excluded.length;
  const dropAwake = filter.awakeAt !== undefined && snoozed === 0;
  if (!dropExclusions && !dropAwake) return filter;
  const result = { ...filter };
  if (dropExclusions && kept.length > 0) result.excludeCategories = kept;
  else if (dropExclusions) delete result.excludeCategories;
  if (dropAwake) delete result.awakeAt;
  return result;
}
