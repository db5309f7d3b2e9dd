import type { KeywordStatistics, QueryTerm } from "@memory/api";

/**
 * Term statistics kept across recalls at most this many terms in all; past it the cache starts
 * over (a bound, DESIGN section 4). A conversation's queries reuse a few thousand terms.
 */
export const STATISTICS_CACHE_MAX_TERMS = 20_000;

/** What a keyword stage knows of one namespace before it counts anything. */
export interface CachedStatistics {
  documents: number;
  averageLength: number;
  /** Per query term (same order): its cached document frequency, or undefined (count it). */
  documentFrequency: (number | undefined)[];
}

interface NamespaceStatistics {
  documents: number;
  averageLength: number;
  frequency: Map<string, number>;
  /** The keys of prefix terms in `frequency` (a correction cannot move them: counted again). */
  prefixes: Set<string>;
}

/** How one namespace's statistics moved with the entries a backend knows changed. */
export interface StatisticsCorrection {
  documents: number;
  averageLength: number;
  /** How many more (or fewer) entries hold each exact term; a term not listed did not move. */
  frequencyChange: ReadonlyMap<string, number>;
}

/** A prefix term counts its prefix and its stem: all three parts name what is counted. */
const termKey = (term: QueryTerm): string =>
  term.prefix ? `${term.text}*${term.stem ?? ""}` : term.text;

/**
 * Namespace-local BM25 statistics (entry count, mean length, document frequencies) held
 * between recalls while the store's change token stays the same. Counting how many entries
 * hold a common term is the one keyword-stage cost that grows with the store (PostgreSQL
 * counts the term's rows over the GIN index on every recall); with the cache a term is
 * counted once per change of the store, so a common term costs what a rare one does.
 *
 * The token is the backend's: it must change on every committed write of any connection, and
 * be `undefined` when no safe value exists (a write in progress): then nothing is read from or
 * kept in the cache. Any new token drops everything, since one write can move every namespace's
 * mean length or frequencies of its own namespace.
 */
export class KeywordStatisticsCache {
  readonly #maxTerms: number;
  #token: unknown;
  #terms = 0;
  readonly #namespaces = new Map<string, NamespaceStatistics>();

  constructor(maxTerms = STATISTICS_CACHE_MAX_TERMS) {
    this.#maxTerms = maxTerms;
  }

  /** The cached part of a namespace's statistics under `token`, or undefined (count all). */
  get(
    token: unknown,
    namespace: string,
    terms: readonly QueryTerm[],
  ): CachedStatistics | undefined {
    if (token === undefined || token !== this.#token) return undefined;
    const cached = this.#namespaces.get(namespace);
    if (!cached) return undefined;
    return {
      documents: cached.documents,
      averageLength: cached.averageLength,
      documentFrequency: terms.map((term) => cached.frequency.get(termKey(term))),
    };
  }

  /** Keeps statistics counted while `token` was current (read before the counting began). */
  set(
    token: unknown,
    namespace: string,
    terms: readonly QueryTerm[],
    statistics: KeywordStatistics,
  ): void {
    if (token === undefined) return;
    if (token !== this.#token || this.#terms + terms.length > this.#maxTerms) this.clear();
    this.#token = token;
    let cached = this.#namespaces.get(namespace);
    if (!cached) {
      cached = {
        documents: statistics.documents,
        averageLength: statistics.averageLength,
        frequency: new Map(),
        prefixes: new Set(),
      };
      this.#namespaces.set(namespace, cached);
    }
    terms.forEach((term, index) => {
      const key = termKey(term);
      if (cached.frequency.has(key)) return;
      cached.frequency.set(key, statistics.documentFrequency[index] ?? 0);
      if (term.prefix) cached.prefixes.add(key);
      this.#terms++;
    });
  }

  /**
   * Moves what was kept under `from` to the token `to` instead of dropping it, for a backend
   * that knows which entries changed in between (SQLite's change log): an agent stores a turn
   * before nearly every recall, and counting each query term again cost more than the rest of
   * the statistics. Namespaces not in `moved` did not change; for a moved one that is kept,
   * `correct` gives its new entry count and mean length and how its exact terms' frequencies
   * moved (its prefix terms are counted again), or `null` to drop it. `correct` is asked only
   * for kept namespaces. Kept under another token: nothing is moved, and the next `set` starts
   * over.
   */
  follow(
    from: unknown,
    to: unknown,
    moved: Iterable<string>,
    correct: (namespace: string) => StatisticsCorrection | null,
  ): void {
    if (from === undefined || to === undefined || from !== this.#token) return;
    for (const namespace of moved) {
      const cached = this.#namespaces.get(namespace);
      if (!cached) continue;
      const correction = correct(namespace);
      if (correction === null) {
        this.#terms -= cached.frequency.size;
        this.#namespaces.delete(namespace);
        continue;
      }
      cached.documents = correction.documents;
      cached.averageLength = correction.averageLength;
      for (const key of cached.prefixes) cached.frequency.delete(key);
      this.#terms -= cached.prefixes.size;
      cached.prefixes.clear();
      for (const [term, change] of correction.frequencyChange) {
        const frequency = cached.frequency.get(term);
        if (frequency !== undefined) cached.frequency.set(term, frequency + change);
      }
    }
    this.#token = to;
  }

  clear(): void {
    this.#namespaces.clear();
    this.#terms = 0;
    this.#token = undefined;
  }
}

/**
 * The statistics of `terms` in one namespace: the cached frequencies, and `count` (the
 * backend's query) for the rest, asked only for the terms the cache lacks. `count` returns the
 * namespace's entry count and mean length with the frequencies of the terms it is given.
 */
export async function cachedStatistics(
  cache: KeywordStatisticsCache,
  token: unknown,
  namespace: string,
  terms: readonly QueryTerm[],
  count: (terms: readonly QueryTerm[]) => KeywordStatistics | Promise<KeywordStatistics>,
): Promise<KeywordStatistics> {
  const cached = cache.get(token, namespace, terms);
  const missing = missingTerms(cached, terms);
  if (cached && missing.length === 0) return withCounted(cached);
  const counted = await count(missing);
  cache.set(token, namespace, missing, counted);
  return withCounted(cached, counted);
}

/**
 * {@link cachedStatistics} with a synchronous `count`, for a backend that counts inside a read
 * transaction it holds for the whole stage (SQLite): nothing else may run in between.
 */
export function cachedStatisticsNow(
  cache: KeywordStatisticsCache,
  token: unknown,
  namespace: string,
  terms: readonly QueryTerm[],
  count: (terms: readonly QueryTerm[]) => KeywordStatistics,
): KeywordStatistics {
  const cached = cache.get(token, namespace, terms);
  const missing = missingTerms(cached, terms);
  if (cached && missing.length === 0) return withCounted(cached);
  const counted = count(missing);
  cache.set(token, namespace, missing, counted);
  return withCounted(cached, counted);
}

const missingTerms = (
  cached: CachedStatistics | undefined,
  terms: readonly QueryTerm[],
): readonly QueryTerm[] =>
  cached ? terms.filter((_, index) => cached.documentFrequency[index] === undefined) : terms;

/** Cached frequencies with the `counted` ones in the gaps, in term order (all cached: none). */
function withCounted(
  cached: CachedStatistics | undefined,
  counted?: KeywordStatistics,
): KeywordStatistics {
  if (!cached) return counted!;
  if (!counted) return { ...cached, documentFrequency: cached.documentFrequency as number[] };
  let next = 0;
  return {
    documents: counted.documents,
    averageLength: counted.averageLength,
    documentFrequency: cached.documentFrequency.map(
      (df) => df ?? counted.documentFrequency[next++] ?? 0,
    ),
  };
}
