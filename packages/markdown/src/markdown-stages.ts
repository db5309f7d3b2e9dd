import type {
  IndexedEntry,
  MemoryEntry,
  NormalizedFilter,
  RecallStages,
  TextLanguage,
} from "@memory/api";
import { InMemoryRecallStages } from "@memory/core";
import type { TreeRow } from "./markdown-tree.js";
import { publicEntry } from "./tree-relations.js";
import type { TreeState } from "./tree-state.js";

/** The stages of a tree without index: the in-memory stages over the parsed rows, keyword-only. */
export function parsedRowStages(
  state: TreeState,
  language: TextLanguage,
  vectorsOff: string,
): RecallStages {
  const { tree } = state;
  return new InMemoryRecallStages({
    rows: function* (namespace) {
      yield* tree.entries(namespace).values();
      yield* tree.chunks(namespace);
    },
    allRows: function* () {
      yield* tree.allEntries();
      yield* tree.allChunks();
    },
    vectorAvailability: () => ({ usable: false, reason: vectorsOff }),
    changeToken: () => tree.generation,
    language,
  });
}

function locate(state: TreeState, namespace: string, key: string): TreeRow | undefined {
  const row = state.tree.entries(namespace).get(key);
  if (row) return row;
  return state.tree.chunks(namespace).find((chunk) => chunk.entry.key === key);
}

/**
 * How many entries in the filter's scope the files hold snoozed past `filter.awakeAt` (0 without
 * it): a stage asked for that many more results than wanted can lose them all to the snooze and
 * still fill its limit.
 */
function snoozedInScope(state: TreeState, filter: NormalizedFilter): number {
  const { awakeAt } = filter;
  if (awakeAt === undefined) return 0;
  const rows =
    filter.namespace !== undefined
      ? state.tree.entries(filter.namespace).values()
      : state.tree.allEntries();
  let count = 0;
  for (const { entry } of rows)
    if (entry.snoozedUntil !== undefined && entry.snoozedUntil > awakeAt) count++;
  return count;
}

/** True when the entry (as the files hold it) is snoozed past the filter's `awakeAt`. */
const asleep = (entry: MemoryEntry, filter: NormalizedFilter) =>
  filter.awakeAt !== undefined &&
  entry.snoozedUntil !== undefined &&
  entry.snoozedUntil > filter.awakeAt;

/**
 * The files are the truth: every entry a stage returns is the file's row (its fields as the
 * files hold them, plus `source`, where it is), and an index row the files no longer hold is
 * dropped. Before each stage `fresh` re-reads the tree and brings the index up to it; `inner`
 * is the stages of the moment (the index's once it is open).
 *
 * Snoozes (`filter.awakeAt`) are applied here too, from the files' rows, whatever the inner
 * stages do: the index's driver is injected and need not know `awakeAt` (nor hold the marks: a
 * person pins or snoozes by editing a line), so a stage is asked for as many more results as
 * entries in scope are snoozed, the snoozed ones are dropped, and a list given best first is cut
 * to the limit: exactly the awake entries the stage would have returned. Over the parsed rows (no index) the
 * in-memory stages already leave them out and this drops nothing.
 */
export function fileTruthStages(
  state: TreeState,
  fresh: (checkFiles: boolean) => Promise<unknown>,
  inner: () => RecallStages,
): RecallStages {
  // `changeToken` (called by the engine first when its cache is on) has just checked every file:
  // the next stage skips that check (a stat per file) and only brings the index up to date.
  let justChecked = false;
  const refresh = () => {
    const checkFiles = !justChecked;
    justChecked = false;
    return fresh(checkFiles);
  };
  const truth = (entry: MemoryEntry, filter: NormalizedFilter): MemoryEntry | undefined => {
    const row = locate(state, entry.namespace, entry.key);
    if (!row || asleep(row.entry, filter)) return undefined;
    // The stage's id stays: the engine fuses hits by id, and a line copied by hand keeps its
    // original's id in the file while the index holds it under an id of its own.
    const out: MemoryEntry = {
      ...entry,
      ...publicEntry(row.entry),
      id: entry.id,
      source: { ...row.source },
    };
    delete out.relations;
    if (entry.embedding !== undefined) out.embedding = entry.embedding;
    return out;
  };
  const entries = (list: MemoryEntry[], filter: NormalizedFilter, limit: number) =>
    list.flatMap((entry) => truth(entry, filter) ?? []).slice(0, limit);
  // `limit` cuts only lists a stage returns best first (recent, vector, like); keyword hits come
  // in no order (the in-memory stage returns every hit; the engine ranks them), so the few extra
  // hits asked for in place of snoozed ones stay: more candidates, never a snoozed one.
  const hits = <T extends IndexedEntry>(list: T[], filter: NormalizedFilter, limit?: number): T[] =>
    list
      .flatMap((hit) => {
        const entry = truth(hit.entry, filter);
        return entry ? [{ ...hit, entry }] : [];
      })
      .slice(0, limit);
  return {
    recent: async (filter, limit) => {
      await refresh();
      const wanted = limit + snoozedInScope(state, filter);
      return entries(await inner().recent(filter, wanted), filter, limit);
    },
    keyword: async (request) => {
      await refresh();
      const pool = request.pool + snoozedInScope(state, request.filter);
      const result = await inner().keyword({ ...request, pool });
      return { ...result, hits: hits(result.hits, request.filter) };
    },
    vectorAvailability: () => inner().vectorAvailability(),
    embedQuery: (query, signal) => inner().embedQuery(query, signal),
    vector: async (request) => {
      await refresh();
      const pool = request.pool + snoozedInScope(state, request.filter);
      return hits(await inner().vector({ ...request, pool }), request.filter, request.pool);
    },
    cosines: (ids, vector) => inner().cosines(ids, vector),
    like: async (keywords, filter, pool) => {
      await refresh();
      const wanted = pool + snoozedInScope(state, filter);
      return entries(await inner().like(keywords, filter, wanted), filter, pool);
    },
    // Both inner stages (in-memory, SQLite) have it; a hybrid stage neither. A snoozed neighbour
    // is dropped here (an inner stage that knows `awakeAt` reaches past it instead).
    neighbors: async (ids, filter) => {
      const found = (await inner().neighbors?.(ids, filter)) ?? new Map();
      return new Map([...found].map(([id, list]) => [id, hits(list, filter)]));
    },
    attachEmbeddings: (results) => inner().attachEmbeddings(results),
    changeToken: () => {
      // A cheap check of the files first, so that an edit is never answered from the cache.
      state.refreshFiles();
      justChecked = true;
      return `${state.tree.generation}:${String(inner().changeToken?.() ?? "")}`;
    },
  };
}
