import { KeywordStatisticsCache, type StatisticsCorrection } from "@memory/core";
import type { StatementCache } from "../statement-cache.js";
import type { ChangeListener, RowChange } from "./recall-rows.js";

/**
 * The keyword statistics SQLite counted (namespace entry counts, mean lengths, terms' document
 * frequencies), moved along the change log with the kept rows (recall-rows.ts) instead of
 * counted again after every write. Counting a term's frequency opens an FTS5 cursor, which
 * after a write reads the index structure again: four query terms cost about 70 us, a sixth of
 * a recall on a 419-entry conversation right after a store.
 *
 * A term's frequency is the number of the namespace's rows whose search terms hold it (what
 * FTS5's vocabulary, or the count within the namespace, says: the analyzer's terms are each one
 * token of FTS5's `ascii` tokenizer). A written row moves it by what the row held before and
 * holds now (the log keeps the before, the row the now); entry counts and total lengths are read
 * from `namespace_stats` for the namespaces that moved. Rows whose namespace and terms stayed
 * (pins, snoozes, supersessions) move nothing. A row whose terms were too long for the log to
 * keep makes its namespace count again.
 */
export class FollowedStatistics implements ChangeListener {
  readonly cache = new KeywordStatisticsCache();

  followed(
    statements: StatementCache,
    from: string,
    to: string,
    changes: readonly RowChange[],
  ): void {
    const moved = new Map<string, Map<string, number>>();
    // Namespaces a row left whose terms the log did not keep: counted again.
    const unknown = new Set<string>();
    for (const { before, after } of changes) {
      if (before?.namespace === after?.namespace && before?.terms === after?.terms) continue;
      if (before?.terms === null) unknown.add(before.namespace);
      else if (before) count(moved, before.namespace, before.terms, -1);
      if (after) count(moved, after.namespace, after.terms!, 1);
    }
    // Totals are read only for the moved namespaces the cache holds.
    const correct = (namespace: string): StatisticsCorrection | null => {
      const frequencyChange = moved.get(namespace);
      if (unknown.has(namespace) || !frequencyChange) return null;
      const totals = statements
        .get("SELECT documents, terms FROM namespace_stats WHERE namespace = ?")
        .raw(true)
        .get(namespace) as [number, number] | undefined;
      return totals === undefined || totals[0] <= 0
        ? null
        : { documents: totals[0], averageLength: totals[1] / totals[0], frequencyChange };
    };
    this.cache.follow(from, to, new Set([...moved.keys(), ...unknown]), correct);
  }

  startedOver(): void {
    this.cache.clear();
  }
}

/** Adds `sign` to each distinct term of a row, under its namespace. */
function count(
  moved: Map<string, Map<string, number>>,
  namespace: string,
  terms: string,
  sign: number,
): void {
  let changes = moved.get(namespace);
  if (!changes) {
    changes = new Map();
    moved.set(namespace, changes);
  }
  for (const term of new Set(terms.split(" ")))
    if (term !== "") changes.set(term, (changes.get(term) ?? 0) + sign);
}
