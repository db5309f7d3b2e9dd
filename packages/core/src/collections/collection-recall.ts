import {
  type CountOptions,
  DEFAULT_NAMESPACE,
  isCollectionKey,
  type MemoryEntry,
  parseCollectionKey,
  type RecallOptions,
  validateCollectionsOption,
  validateLimit,
} from "@memory/api";
import {
  type CollectionDefinition,
  contextFor,
  type IndexedNote,
  type JobStateAccess,
  manifestShard,
  readManifestShard,
  readStoredCollections,
} from "./collection-state.js";

// Rounds of a filtered recall: the first asks for FILTER_FIRST times the limit (at least
// FILTER_MIN), each next one FILTER_GROWTH times more, until enough pass the filter or the
// engine has no more to give. Few, large rounds: each round is a whole recall.
const FILTER_ROUNDS = 3;
const FILTER_FIRST = 10;
const FILTER_MIN = 50;
const FILTER_GROWTH = 8;
const RECALL_LIMIT_MAX = 10_000;

type Recall = (query: string, options: RecallOptions) => Promise<MemoryEntry[]>;
type Count = (options: CountOptions) => Promise<number>;

/**
 * The category filters `categoriesWithout` decided, per namespace and choice, kept until the
 * store changes: the facade clears it on its own writes, and a change token that moved (another
 * process wrote) discards it. Without a token nothing is kept (every recall counts again).
 */
export class CollectionFilterCache {
  #entries = new Map<string, string[] | undefined>();
  #token: unknown;

  async get(
    id: string,
    token: (() => unknown) | undefined,
    decide: () => Promise<string[] | undefined>,
  ): Promise<string[] | undefined> {
    const current = await token?.();
    if (current === undefined) return decide();
    if (current !== this.#token) {
      this.#entries.clear();
      this.#token = current;
    }
    if (this.#entries.has(id)) return this.#entries.get(id);
    const decided = await decide();
    this.#entries.set(id, decided);
    return decided;
  }

  clear(): void {
    this.#entries.clear();
  }
}

/** What a filtered recall needs besides the engine: counts and, optionally, a decision cache. */
export interface CollectionRecallParts {
  count: Count;
  jobs: JobStateAccess;
  cache?: CollectionFilterCache;
  changeToken?: () => unknown;
}

const BUILT_IN_CATEGORIES = ["core", "daily", "conversation"];

/**
 * Recall with the `collections` choice: memory and every collection (the default), memory only
 * (`false`) or memory and the named collections. The choice filters the engine's ranked results
 * (the engine is not told about collections), asking for more until the limit is filled; every
 * collection result then gets its `source` (from its key) with the note's title and context.
 */
export async function recallWithCollections(
  recall: Recall,
  parts: CollectionRecallParts,
  query: string,
  options: RecallOptions,
): Promise<MemoryEntry[]> {
  const { count, jobs } = parts;
  const { collections: choice, ...engineOptions } = options;
  const chosen = validateCollectionsOption(choice);
  let found: MemoryEntry[];
  if (chosen === undefined || chosen === true) found = await recall(query, engineOptions);
  else {
    const allowed = chosen === false ? [] : chosen;
    const decide = () => categoriesWithout(count, jobs, engineOptions, allowed);
    const id = JSON.stringify([
      engineOptions.namespace ?? DEFAULT_NAMESPACE,
      engineOptions.categories,
      allowed,
    ]);
    const categories = parts.cache
      ? await parts.cache.get(id, parts.changeToken, decide)
      : await decide();
    if (categories?.length === 0) found = [];
    // The engine applies filters before its limit: one call, nothing to filter afterwards.
    else if (categories) found = await recall(query, { ...engineOptions, categories });
    else found = await filteredRecall(recall, query, engineOptions, allowed);
  }
  return found.some((entry) => isCollectionKey(entry.key)) ? withSources(jobs, found) : found;
}

/**
 * The category filter that leaves out the collections not chosen, when one says it exactly: the
 * caller's categories minus those collections, or, when the namespace holds only built-in
 * categories besides its collections (a few counts tell), the built-ins plus the chosen
 * collections. Undefined when no filter is exact (custom categories): results are filtered then.
 */
async function categoriesWithout(
  count: Count,
  jobs: JobStateAccess,
  options: RecallOptions,
  allowed: readonly string[],
): Promise<string[] | undefined> {
  const namespace = options.namespace ?? DEFAULT_NAMESPACE;
  const definitions = Object.values(await readStoredCollections(jobs)).filter(
    (definition) => definition.namespace === namespace,
  );
  const excluded = new Set(
    definitions.map((definition) => definition.name).filter((name) => !allowed.includes(name)),
  );
  if (options.categories) return options.categories.filter((category) => !excluded.has(category));
  if (excluded.size === 0) return undefined;
  const kept = [
    ...BUILT_IN_CATEGORIES,
    ...definitions.map((d) => d.name).filter((name) => !excluded.has(name)),
  ];
  const every = { namespace, includeSuperseded: true };
  const [total, ...parts] = await Promise.all([
    count(every),
    ...[...kept, ...excluded].map((category) => count({ ...every, categories: [category] })),
  ]);
  const known = parts.reduce((sum, part) => sum + part, 0);
  if (total !== known) return undefined;
  // Only categories that hold entries: a shorter filter is a cheaper one for the engine.
  return kept.filter((_, index) => (parts[index] ?? 0) > 0);
}

async function filteredRecall(
  recall: Recall,
  query: string,
  options: RecallOptions,
  allowed: readonly string[],
): Promise<MemoryEntry[]> {
  const wanted = validateLimit(options.limit, 5);
  const keep = (entry: MemoryEntry) => {
    const parts = isCollectionKey(entry.key) ? parseCollectionKey(entry.key) : undefined;
    return parts ? allowed.includes(parts.collection) : !isCollectionKey(entry.key);
  };
  let asked = Math.min(RECALL_LIMIT_MAX, Math.max(wanted * FILTER_FIRST, FILTER_MIN));
  let kept: MemoryEntry[] = [];
  for (let round = 0; round < FILTER_ROUNDS && wanted > 0; round++) {
    const found = await recall(query, { ...options, limit: asked });
    kept = found.filter(keep);
    if (kept.length >= wanted || found.length < asked || asked === RECALL_LIMIT_MAX) break;
    asked = Math.min(RECALL_LIMIT_MAX, asked * FILTER_GROWTH);
  }
  return kept.slice(0, wanted);
}

/** Adds `source` (collection, path, lines, title, context) to each collection result. */
async function withSources(jobs: JobStateAccess, found: MemoryEntry[]): Promise<MemoryEntry[]> {
  const definitions = await readStoredCollections(jobs);
  const shards = new Map<string, Promise<Record<string, IndexedNote>>>();
  const noteOf = (collection: string, path: string) => {
    const shard = manifestShard(path);
    const id = `${collection}\u0000${shard}`;
    let notes = shards.get(id);
    if (!notes) {
      notes = readManifestShard(jobs, collection, shard);
      shards.set(id, notes);
    }
    return notes.then((loaded) => loaded[path]);
  };
  return Promise.all(
    found.map(async (entry) => {
      const parts = parseCollectionKey(entry.key);
      if (!parts) return entry;
      const note = await noteOf(parts.collection, parts.path);
      const definition: CollectionDefinition | undefined = definitions[parts.collection];
      const context = definition ? contextFor(definition, parts.path) : undefined;
      return {
        ...entry,
        source: {
          path: parts.path,
          startLine: parts.startLine,
          endLine: parts.endLine,
          collection: parts.collection,
          ...(note ? { title: note.title, contentType: note.contentType } : {}),
          ...(context ? { context } : {}),
        },
      };
    }),
  );
}
