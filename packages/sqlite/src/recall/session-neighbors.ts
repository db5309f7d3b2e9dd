import type { IndexedEntry, NormalizedFilter } from "@memory/api";
import { filterSql } from "../filter-sql.js";
import type { StatementCache } from "../statement-cache.js";
import type { AnchorNeighbors, NeighborDocs, RecallRows } from "./recall-rows.js";
import { SEARCH_COLUMNS, type SearchHit, searchRows, toSearchHit } from "./search-row.js";

/**
 * The entries just before and after each given one in its session (same namespace and
 * session, by creation time then doc id, i.e. write order) that pass the filter: the
 * `neighbors` stage of recall. Keyed by the given ids, before then after; `hits` lists every
 * neighbour (for `cosines()`).
 *
 * One statement finds the neighbours' doc ids of the anchors `rows` does not already hold
 * (recall-rows.ts: under this filter, kept across writes that did not touch their sessions);
 * each side is two seeks in `memories_session_order`: the same creation time with a lower
 * (higher) doc id, else an earlier (later) time. A single seek for "earlier time, or the same time and a lower doc id"
 * cannot use the index past the time, and the turns of a conversation often share one: it
 * walked half the session. Rows are then read only for neighbours `rows` does not hold (this
 * recall's keyword candidates are most of a conversation's neighbours).
 */
export function sessionNeighbors(
  statements: StatementCache,
  ids: readonly string[],
  filter: NormalizedFilter & { namespace: string },
  rows: RecallRows,
): { neighbors: Map<string, IndexedEntry[]>; hits: SearchHit[] } {
  const neighbors = new Map<string, IndexedEntry[]>();
  if (ids.length === 0) return { neighbors, hits: [] };
  const unknown = ids.filter((id) => rows.neighbors(id) === undefined);
  if (unknown.length > 0) {
    // Built only when a statement runs: most recalls find every anchor kept.
    const { where, params } = filterSql(filter);
    const seek = (order: "ASC" | "DESC", condition: string, byTime: boolean) =>
      `(SELECT m.doc_id FROM memories m
        WHERE m.namespace = anchors.namespace AND m.session_id = anchors.session_id
          AND ${condition} AND ${where}
        ORDER BY ${byTime ? `m.created_at ${order}, ` : ""}m.doc_id ${order} LIMIT 1)`;
    const before = `coalesce(
        ${seek("DESC", "m.created_at = anchors.created_at AND m.doc_id < anchors.doc_id", false)},
        ${seek("DESC", "m.created_at < anchors.created_at", true)})`;
    const after = `coalesce(
        ${seek("ASC", "m.created_at = anchors.created_at AND m.doc_id > anchors.doc_id", false)},
        ${seek("ASC", "m.created_at > anchors.created_at", true)})`;
    // Anchors without a session are kept too (with no neighbours): facts usually have none.
    const found = statements
      .get(
        `WITH anchors AS MATERIALIZED (
           SELECT given.key AS position, a.doc_id, a.namespace, a.session_id, a.created_at
           FROM json_each(?) AS given CROSS JOIN memories a ON a.id = given.value)
         SELECT position, doc_id, session_id,
           CASE WHEN session_id IS NOT NULL THEN ${before} END,
           CASE WHEN session_id IS NOT NULL THEN ${after} END
         FROM anchors`,
      )
      .raw(true)
      .all(JSON.stringify(unknown), ...params, ...params, ...params, ...params) as [
      number,
      number,
      string | null,
      number | null,
      number | null,
    ][];
    // An anchor no longer stored is not kept: nothing logged would ever drop it.
    const looked = new Map<string, AnchorNeighbors>();
    for (const [position, docId, session, before, after] of found)
      looked.set(unknown[position]!, { docs: [before, after], docId, session });
    rows.keepNeighbors(looked);
  }
  const sides = ids.map((id) => rows.neighbors(id) ?? NONE);
  const docs = sides.flat().filter((doc): doc is number => doc !== null);
  const byDoc = new Map<number, SearchHit>();
  // The seeks applied the filter: the rows are read by doc id alone.
  const read = rows.read(docs, (missing) =>
    searchRows(
      statements.get(
        `SELECT ${SEARCH_COLUMNS} FROM json_each(?) AS wanted
         CROSS JOIN memories m ON m.doc_id = wanted.value`,
      ),
      JSON.stringify(missing),
    ),
  );
  for (const row of read) if (!byDoc.has(row[0])) byDoc.set(row[0], toSearchHit(row));
  sides.forEach((side, position) => {
    for (const doc of side) {
      const hit = doc === null ? undefined : byDoc.get(doc);
      if (!hit) continue;
      const id = ids[position]!;
      const list = neighbors.get(id);
      if (list) list.push(hit.indexed);
      else neighbors.set(id, [hit.indexed]);
    }
  });
  return { neighbors, hits: [...byDoc.values()] };
}

const NONE: NeighborDocs = [null, null];
