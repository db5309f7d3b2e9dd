import type {
  EmbeddingProvider,
  IndexedEntry,
  KeywordStageRequest,
  KeywordStageResult,
  MemoryEntry,
  NormalizedFilter,
  RecallStages,
  TextLanguage,
  VectorAvailability,
  VectorStageHit,
  VectorStageRequest,
} from "@memory/api";
import { cosineSimilarity } from "../algorithms/cosine.js";
import { likeRelevance } from "./relevance.js";
import { indexedTerms, termMatches } from "./text-analyzer.js";

/** One stored entry as a pure-JS backend holds it. */
export interface InMemoryRow {
  entry: MemoryEntry;
  vector?: ArrayLike<number>;
}

export interface InMemoryStagesOptions {
  /** Every row of a namespace (the stages filter them), in write order (session neighbours with equal `createdAt` follow it). */
  rows(namespace: string): Iterable<InMemoryRow>;
  /** Rows of every namespace (cosines and embeddings by id). */
  allRows(): Iterable<InMemoryRow>;
  embedder?: EmbeddingProvider;
  /** Overrides the default availability (usable whenever an embedder is given). */
  vectorAvailability?(): VectorAvailability;
  changeToken?(): unknown;
  /** The analyzer language of the index terms (the engine's `textLanguage`). Default english. */
  language?: TextLanguage;
}

/** The part of a filter that leaves an entry out (the first one, in this order). */
export type FilterPart =
  | "namespace"
  | "session"
  | "category"
  | "since"
  | "until"
  | "superseded"
  | "snoozed";

/**
 * Which part of a normalized filter leaves the entry out, or undefined when it passes: the
 * reference every backend's stages are held to (the conformance suite compares them), and what
 * a recall trace names as the reason an entry was `filtered` or `superseded`.
 */
export function filterExclusion(
  entry: MemoryEntry,
  filter: NormalizedFilter,
): FilterPart | undefined {
  if (filter.namespace !== undefined && entry.namespace !== filter.namespace) return "namespace";
  if (filter.sessionId !== undefined && entry.sessionId !== filter.sessionId) return "session";
  if (filter.categories && !filter.categories.includes(entry.category)) return "category";
  if (filter.excludeCategories?.includes(entry.category)) return "category";
  if (filter.since !== undefined && entry.updatedAt < filter.since) return "since";
  if (filter.until !== undefined && entry.updatedAt >= filter.until) return "until";
  if (!filter.includeSuperseded && entry.supersededBy !== undefined) return "superseded";
  if (
    filter.awakeAt !== undefined &&
    entry.snoozedUntil !== undefined &&
    entry.snoozedUntil > filter.awakeAt
  )
    return "snoozed";
  return undefined;
}

/** True when an entry passes every part of a normalized filter. */
export function entryMatchesFilter(entry: MemoryEntry, filter: NormalizedFilter): boolean {
  return filterExclusion(entry, filter) === undefined;
}

const newestFirst = (a: MemoryEntry, b: MemoryEntry) =>
  a.updatedAt < b.updatedAt ? 1 : a.updatedAt > b.updatedAt ? -1 : a.key < b.key ? -1 : 1;

/**
 * Recall stages over rows held in memory: full-text matching and BM25 statistics from the
 * shared text analyzer, exact cosine over every vector. For the reference backend and any
 * backend without an index (Markdown files); fine up to some thousands of entries.
 */
export class InMemoryRecallStages implements RecallStages {
  readonly #options: InMemoryStagesOptions;
  // Index terms by entry id, recomputed when the key or content changes.
  readonly #terms = new Map<string, { key: string; content: string; terms: string }>();

  constructor(options: InMemoryStagesOptions) {
    this.#options = options;
  }

  #indexed(entry: MemoryEntry): string {
    const cached = this.#terms.get(entry.id);
    if (cached && cached.key === entry.key && cached.content === entry.content) return cached.terms;
    const terms = indexedTerms(entry.key, entry.content, this.#options.language);
    this.#terms.set(entry.id, { key: entry.key, content: entry.content, terms });
    return terms;
  }

  #rows(filter: NormalizedFilter): InMemoryRow[] {
    const source =
      filter.namespace !== undefined
        ? this.#options.rows(filter.namespace)
        : this.#options.allRows();
    return [...source].filter((row) => entryMatchesFilter(row.entry, filter));
  }

  async recent(filter: NormalizedFilter, limit: number): Promise<MemoryEntry[]> {
    return this.#rows(filter)
      .map((row) => row.entry)
      .sort(newestFirst)
      .slice(0, limit);
  }

  async keyword(request: KeywordStageRequest): Promise<KeywordStageResult> {
    const { terms, filter } = request;
    let documents = 0;
    let totalLength = 0;
    const frequency = new Array<number>(terms.length).fill(0);
    const hits: (IndexedEntry & { matched: number })[] = [];
    // Statistics cover the whole namespace; hits only the filtered entries.
    for (const row of this.#options.rows(filter.namespace)) {
      const indexed = this.#indexed(row.entry);
      const tokens = indexed === "" ? [] : indexed.split(" ");
      documents++;
      totalLength += tokens.length;
      let matched = 0;
      terms.forEach((term, index) => {
        if (tokens.some((token) => termMatches(token, term))) {
          frequency[index]!++;
          matched++;
        }
      });
      if (matched > 0 && entryMatchesFilter(row.entry, filter))
        hits.push({ entry: row.entry, terms: indexed, matched });
    }
    // Every hit: the engine ranks them by BM25 (a store held in memory is small).
    return {
      hits: hits.map(({ entry, terms: indexed }) => ({ entry, terms: indexed })),
      statistics: {
        documents,
        averageLength: documents > 0 ? totalLength / documents : 0,
        documentFrequency: frequency,
      },
    };
  }

  vectorAvailability(): VectorAvailability {
    if (this.#options.vectorAvailability) return this.#options.vectorAvailability();
    return this.#options.embedder
      ? { usable: true }
      : {
          usable: false,
          reason:
            "no embedding provider is configured: recall is keyword-only (set embedding_provider to enable vector recall)",
        };
  }

  async embedQuery(query: string, signal?: AbortSignal): Promise<Float32Array> {
    const embedder = this.#options.embedder;
    if (!embedder) throw new Error("no embedding provider");
    const vector = await embedder.embedOne(
      query,
      signal ? { purpose: "query", signal } : { purpose: "query" },
    );
    return Float32Array.from(vector);
  }

  async vector(request: VectorStageRequest): Promise<VectorStageHit[]> {
    const hits: VectorStageHit[] = [];
    for (const row of this.#rows(request.filter)) {
      if (!row.vector) continue;
      const cosine = cosineSimilarity(request.vector, row.vector);
      hits.push({ entry: row.entry, terms: this.#indexed(row.entry), cosine });
    }
    hits.sort((a, b) => b.cosine - a.cosine || (a.entry.key < b.entry.key ? -1 : 1));
    return hits.slice(0, request.pool);
  }

  async cosines(ids: readonly string[], vector: Float32Array): Promise<Map<string, number>> {
    const wanted = new Set(ids);
    const result = new Map<string, number>();
    for (const row of this.#options.allRows()) {
      if (wanted.has(row.entry.id) && row.vector)
        result.set(row.entry.id, cosineSimilarity(vector, row.vector));
    }
    return result;
  }

  async neighbors(
    ids: readonly string[],
    filter: NormalizedFilter & { namespace: string },
  ): Promise<Map<string, IndexedEntry[]>> {
    const wanted = new Set(ids);
    const sessions = new Map<string, MemoryEntry[]>();
    // Rows come in write order; a stable sort by creation time keeps it for equal times.
    for (const row of this.#rows(filter)) {
      const session = row.entry.sessionId;
      if (session === undefined) continue;
      const list = sessions.get(session) ?? [];
      list.push(row.entry);
      sessions.set(session, list);
    }
    const result = new Map<string, IndexedEntry[]>();
    for (const list of sessions.values()) {
      if (!list.some((entry) => wanted.has(entry.id))) continue;
      list.sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0));
      list.forEach((entry, index) => {
        if (!wanted.has(entry.id)) return;
        const around = [list[index - 1], list[index + 1]].filter(
          (neighbor): neighbor is MemoryEntry => neighbor !== undefined,
        );
        if (around.length > 0)
          result.set(
            entry.id,
            around.map((neighbor) => ({ entry: neighbor, terms: this.#indexed(neighbor) })),
          );
      });
    }
    return result;
  }

  async like(
    keywords: readonly string[],
    filter: NormalizedFilter,
    pool: number,
  ): Promise<MemoryEntry[]> {
    // The share of keywords found, by the same rule that scores LIKE matches.
    return this.#rows(filter)
      .map((row) => ({
        entry: row.entry,
        found: likeRelevance(keywords, row.entry.key, row.entry.content),
      }))
      .filter((item) => item.found > 0)
      .sort((a, b) => b.found - a.found || newestFirst(a.entry, b.entry))
      .slice(0, pool)
      .map((item) => item.entry);
  }

  async attachEmbeddings(results: MemoryEntry[]): Promise<MemoryEntry[]> {
    const vectors = new Map<string, ArrayLike<number>>();
    for (const row of this.#options.allRows())
      if (row.vector) vectors.set(row.entry.id, row.vector);
    return results.map((entry) => {
      const vector = vectors.get(entry.id);
      return vector ? { ...entry, embedding: Array.from(vector) } : entry;
    });
  }

  changeToken(): unknown {
    return this.#options.changeToken?.();
  }
}
