import type { Category, NormalizedFilter } from "@memory/api";
import type { StatementCache } from "../statement-cache.js";

/** What a filter's default exclusions meet in the file. */
interface ExclusionFacts {
  /** The excluded categories the namespace holds entries of. */
  present: readonly Category[];
  /** The latest `snoozed_until` of any entry, or null when none is snoozed. */
  latestSnooze: string | null;
}

/**
 * Recall filters without the conditions that exclude nothing: the excluded categories the
 * namespace holds no entry of, and `awakeAt` when no entry is snoozed past it. A recall leaves
 * the knowledge graph's `triple` and `entity` entries and snoozed entries out by default, and
 * most namespaces have none of them: a condition that excludes nothing must cost neither a plan
 * for a narrowed filter (`hasNarrowFilter`: FTS5's ranked ids first, the vector index rather than
 * an exact scan) nor its subqueries in every statement.
 *
 * The facts come from one statement of index seeks (`memories_category` per excluded category,
 * the last row of the partial `memories_snoozed`), kept while the write version stays the same:
 * `meta.change_seq` moves on every write recall reads, pins and snoozes included, in this
 * process or another; usage events, written after every recall, leave it alone.
 */
export class EffectiveFilters {
  #cached:
    | { statements: StatementCache; version: string; question: string; facts: ExclusionFacts }
    | undefined;

  of<F extends NormalizedFilter>(
    statements: StatementCache,
    filter: F,
    version = statements.writeVersion(),
  ): F {
    const excluded =
      filter.namespace !== undefined && (filter.excludeCategories?.length ?? 0) > 0
        ? filter.excludeCategories!
        : undefined;
    if (excluded === undefined && filter.awakeAt === undefined) return filter;
    const facts = this.#facts(statements, version, filter.namespace ?? null, excluded ?? []);
    const dropExclusions = excluded !== undefined && facts.present.length < excluded.length;
    const dropAwake =
      filter.awakeAt !== undefined &&
      (facts.latestSnooze === null || facts.latestSnooze <= filter.awakeAt);
    if (!dropExclusions && !dropAwake) return filter;
    const result = { ...filter };
    if (dropExclusions && facts.present.length > 0) result.excludeCategories = facts.present;
    else if (dropExclusions) delete result.excludeCategories;
    if (dropAwake) delete result.awakeAt;
    return result;
  }

  #facts(
    statements: StatementCache,
    version: string,
    namespace: string | null,
    excluded: readonly Category[],
  ): ExclusionFacts {
    const question = JSON.stringify([namespace, excluded]);
    const cached = this.#cached;
    if (
      cached?.statements === statements &&
      cached.version === version &&
      cached.question === question
    )
      return cached.facts;
    const [present, latestSnooze] = statements
      .get(
        `SELECT
           (SELECT json_group_array(excluded.value) FROM json_each(?) AS excluded WHERE EXISTS
             (SELECT 1 FROM memories m WHERE m.namespace = ? AND m.category = excluded.value)),
           (SELECT max(snoozed_until) FROM memories WHERE snoozed_until IS NOT NULL)`,
      )
      .raw(true)
      .get(JSON.stringify(excluded), namespace) as [string, string | null];
    const facts = { present: JSON.parse(present) as Category[], latestSnooze };
    this.#cached = { statements, version, question, facts };
    return facts;
  }
}
