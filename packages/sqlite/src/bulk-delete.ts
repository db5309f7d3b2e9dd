import type { DeleteReport, DeleteWhere } from "@memory/api";
import type { Opened } from "./opened-store.js";

/**
 * The driver's `deleteWhere` (`deleteEntries`, `purgeNamespace`, `purgeSession`). The retention
 * floor ranks every entry of a (namespace, category) in scope, whatever the age and supersession
 * conditions, so the window runs before them. The report and the DELETE run in one IMMEDIATE
 * transaction, so they agree even with writers in other processes. Triggers remove what belongs
 * to each deleted row (vectors, edges, usage events and statistics).
 */
export function deleteMatchingEntries(opened: Opened, normalized: DeleteWhere): DeleteReport {
  const scope: string[] = [];
  const scopeParams: unknown[] = [];
  if (normalized.namespace !== undefined) {
    scope.push("namespace = ?");
    scopeParams.push(normalized.namespace);
  }
  if (normalized.sessionId !== undefined) {
    scope.push("session_id = ?");
    scopeParams.push(normalized.sessionId);
  }
  if (normalized.categories !== undefined) {
    scope.push("category IN (SELECT value FROM json_each(?))");
    scopeParams.push(JSON.stringify(normalized.categories));
  }
  const eligible: string[] = [];
  const eligibleParams: unknown[] = [];
  if (normalized.olderThan !== undefined) {
    eligible.push("updated_at < ?");
    eligibleParams.push(normalized.olderThan);
  }
  if (normalized.superseded === true) eligible.push("superseded_by IS NOT NULL");
  if (normalized.superseded === false) eligible.push("superseded_by IS NULL");
  // Pinned entries stay whatever else matches, and are not counted as eligible; they still
  // rank among the newest, so `keepNewest` keeps at least that many entries of a category.
  if (normalized.keepPinned === true) eligible.push("pinned = 0");
  const ranked = `SELECT doc_id, category, updated_at, superseded_by, pinned,
      ROW_NUMBER() OVER (PARTITION BY namespace, category ORDER BY updated_at DESC, key DESC) AS newest_rank
    FROM memories WHERE ${scope.length > 0 ? scope.join(" AND ") : "1"}`;
  const where = eligible.length > 0 ? eligible.join(" AND ") : "1";
  const params = [...scopeParams, ...eligibleParams];

  const { db } = opened.connection;
  const { rows, doomed } = db
    .transaction(() => {
      const rows = opened.statements
        .get(
          `SELECT category, COUNT(*) AS eligible, SUM(newest_rank > ?) AS deleted
           FROM (${ranked}) WHERE ${where} GROUP BY category ORDER BY category`,
        )
        .all(normalized.keepNewest, ...params) as {
        category: string;
        eligible: number;
        deleted: number;
      }[];
      const doomed = normalized.dryRun
        ? []
        : (opened.statements
            .get(
              `DELETE FROM memories WHERE doc_id IN (SELECT doc_id FROM (${ranked}) WHERE ${where} AND newest_rank > ?) RETURNING doc_id`,
            )
            .all(...params, normalized.keepNewest) as { doc_id: number }[]);
      return { rows, doomed };
    })
    .immediate();
  if (doomed.length > 0) opened.vectors.removed(doomed.map((row) => row.doc_id));
  const report: DeleteReport = { deleted: 0, byCategory: {} };
  for (const row of rows) {
    report.byCategory[row.category] = { eligible: row.eligible, deleted: row.deleted };
    report.deleted += row.deleted;
  }
  return report;
}
