import type { NormalizedFilter } from "@memory/api";
import type { Params } from "./sql.js";

/** The qualified (quoted) names of the tables of one schema. */
export interface Tables {
  memories: string;
  vectors: string;
  namespaceStats: string;
  relations: string;
  usageEvents: string;
  usageRecords: string;
}

/** SQL conditions on alias `m` for a normalized filter; every filter is applied before limits. */
export function filterConditions(filter: NormalizedFilter, params: Params): string[] {
  const conditions: string[] = [];
  if (filter.namespace !== undefined)
    conditions.push(`m.namespace = ${params.add(filter.namespace)}`);
  if (filter.sessionId !== undefined)
    conditions.push(`m.session_id = ${params.add(filter.sessionId)}`);
  if (filter.categories !== undefined)
    conditions.push(`m.category = ANY(${params.add(filter.categories)}::text[])`);
  if (filter.excludeCategories !== undefined && filter.excludeCategories.length > 0)
    conditions.push(`m.category <> ALL(${params.add([...filter.excludeCategories])}::text[])`);
  if (filter.since !== undefined)
    conditions.push(`m.updated_at >= ${params.add(filter.since)}::timestamptz`);
  if (filter.until !== undefined)
    conditions.push(`m.updated_at < ${params.add(filter.until)}::timestamptz`);
  if (!filter.includeSuperseded) conditions.push("m.superseded_by IS NULL");
  // Snoozed entries are awake again from the instant their snooze ends.
  if (filter.awakeAt !== undefined)
    conditions.push(
      `(m.snoozed_until IS NULL OR m.snoozed_until <= ${params.add(filter.awakeAt)}::timestamptz)`,
    );
  return conditions;
}

export function whereClause(conditions: readonly string[]): string {
  return conditions.length === 0 ? "" : `WHERE ${conditions.join(" AND ")}`;
}
