import type { IndexedEntry, MemoryEntry, RecallStages, TextLanguage } from "@memory/api";
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
 * The files are the truth: every entry a stage returns is the file's row (its fields as the
 * files hold them, plus `source`, where it is), and an index row the files no longer hold is
 * dropped. Before each stage `fresh` re-reads the tree and brings the index up to it; `inner`
 * is the stages of the moment (the index's once it is open).
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
  const truth = (entry: MemoryEntry): MemoryEntry | undefined => {
    const row = locate(state, entry.namespace, entry.key);
    if (!row) return undefined;
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
  const entries = (list: MemoryEntry[]) => list.flatMap((entry) => truth(entry) ?? []);
  const hits = <T extends IndexedEntry>(list: T[]): T[] =>
    list.flatMap((hit) => {
      const entry = truth(hit.entry);
      return entry ? [{ ...hit, entry }] : [];
    });
  return {
    recent: async (filter, limit) => {
      await refresh();
      return entries(await inner().recent(filter, limit));
    },
    keyword: async (request) => {
      await refresh();
      const result = await inner().keyword(request);
      return { ...result, hits: hits(result.hits) };
    },
    vectorAvailability: () => inner().vectorAvailability(),
    embedQuery: (query, signal) => inner().embedQuery(query, signal),
    vector: async (request) => {
      await refresh();
      return hits(await inner().vector(request));
    },
    cosines: (ids, vector) => inner().cosines(ids, vector),
    like: async (keywords, filter, pool) => {
      await refresh();
      return entries(await inner().like(keywords, filter, pool));
    },
    // Both inner stages (in-memory, SQLite) have it; a hybrid stage neither.
    neighbors: async (ids, filter) => {
      const found = (await inner().neighbors?.(ids, filter)) ?? new Map();
      return new Map([...found].map(([id, list]) => [id, hits(list)]));
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
