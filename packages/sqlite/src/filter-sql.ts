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
  if (filter.categories !== undefined) {
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
  return { where: clauses.length > 0 ? clauses.join(" AND ") : "1", params };
}

/** True when the filter narrows more than namespace + superseded (the in-memory index knows only namespaces). */
export function hasNarrowFilter(filter: NormalizedFilter): boolean {
  return (
    filter.sessionId !== undefined ||
    filter.categories !== undefined ||
    (filter.excludeCategories !== undefined && filter.excludeCategories.length > 0) ||
    filter.since !== undefined ||
    filter.until !== undefined
  );
}
