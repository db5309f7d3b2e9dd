import type { NormalizedFilter } from "@memory/api";

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
