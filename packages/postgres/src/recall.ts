import {
  type EmbeddingProvider,
  extractSearchTerms,
  type FusedCandidate,
  finalizeRecall,
  fuseRrf,
  fuseWeighted,
  isMatchAllQuery,
  type KeywordHit,
  keywordOnly,
  keywordRelevance,
  likeFallbackKeywords,
  type MemoryEntry,
  type NormalizedFilter,
  type RankableEntry,
  type RecallExplain,
  type RecallOptions,
  type SearchMode,
  type VectorHit,
  validateEmbedding,
  vectorOnly,
} from "@memory/api";
import type { Database } from "./database.js";
import { ENTRY_COLUMNS, type EntryRow, rowToEntry } from "./entry-row.js";
import type { PostgresSettings } from "./postgres-options.js";
import {
  candidateQuery,
  filterConditions,
  likeQuery,
  type Tables,
  whereClause,
} from "./recall-query.js";
import { buildTsQuery } from "./search-text.js";
import { encodeVector, Params } from "./sql.js";
import type { VectorState } from "./vector-store.js";

// A lexeme in more than this share of entries ("the", "is") is used for scoring but not for
// selecting entries (see #selectingTerms).
const COMMON_TERM_FREQUENCY = 0.01;
const COMMON_TERMS_TTL_MS = 10 * 60_000;

interface CandidateRow extends EntryRow {
  keyword_rank: string | null;
  keyword_score: number | null;
  vector_rank: string | null;
  cosine: number | null;
  fused: number;
}

interface FinalizeBase {
  mode: SearchMode;
  limit: number;
  minScore?: number;
  includeSuperseded: boolean;
  halfLifeDays: number;
}

export interface RecallContext {
  db: Database;
  tables: Tables;
  /** Unquoted schema name (for pg_stats). */
  schema: string;
  settings: PostgresSettings;
  embedder: EmbeddingProvider | undefined;
  /** Hybrid stages on two connections at once (fused in JavaScript) or in one statement. */
  hybridExecution: "concurrent" | "single";
}

/**
 * The recall pipeline of DESIGN section 4, mostly in one SQL round trip: both stages, their
 * fusion, then `finalizeRecall` (decay, superseded, minScore, limit) from `@memory/api`.
 */
export class Recaller {
  readonly #context: RecallContext;
  // Query embeddings by fingerprint and text. Recall results themselves are not cached: another
  // replica's write must be visible at once, and a recall query costs about what checking a
  // cached answer's freshness would.
  readonly #queryEmbeddings = new Map<string, number[]>();
  #common: { terms: Set<string>; expires: number } | undefined;

  constructor(context: RecallContext) {
    this.#context = context;
  }

  clear(): void {
    this.#queryEmbeddings.clear();
  }

  async recall(
    query: string,
    options: RecallOptions & { limit: number; mode: SearchMode },
    filter: NormalizedFilter,
    state: VectorState,
  ): Promise<MemoryEntry[]> {
    const { settings, embedder } = this.#context;
    const { limit, mode } = options;
    const finalize: FinalizeBase = {
      mode,
      limit,
      ...(options.minScore !== undefined ? { minScore: options.minScore } : {}),
      includeSuperseded: filter.includeSuperseded,
      halfLifeDays: settings.half_life_days,
    };
    const withEmbeddings = options.withEmbeddings === true;
    if (isMatchAllQuery(query)) {
      const recent = await this.#recent(filter, finalize);
      return withEmbeddings ? this.#attachEmbeddings(recent, state) : recent;
    }

    const vectorsUsable = state.status === "ok" && embedder !== undefined;
    const degraded = mode !== "bm25" && !vectorsUsable ? state.reason : undefined;
    const useVectors = mode !== "bm25" && degraded === undefined;
    const useKeywords = mode !== "embedding" || degraded !== undefined;
    const terms = useKeywords ? extractSearchTerms(query) : [];
    const selecting = await this.#selectingTerms(terms);
    const vector = useVectors ? encodeVector(await this.#queryEmbedding(query)) : null;
    const pool = limit * settings.candidate_multiplier;
    const tsQuery = buildTsQuery(terms);
    const fusion = {
      strategy: settings.merge_strategy,
      rrfK: settings.rrf_k,
      vectorWeight: settings.vector_weight,
      keywordWeight: settings.keyword_weight,
    };
    const statement = (stages: { keyword: boolean; vector: boolean }) =>
      candidateQuery({
        tables: this.#context.tables,
        filter,
        pool,
        tsQuery: stages.keyword ? tsQuery : null,
        tsQueryAny: selecting.length === terms.length ? tsQuery : buildTsQuery(selecting),
        tsQueryAll: selecting.length > 1 ? buildTsQuery(selecting, "&") : null,
        vector: stages.vector ? vector : null,
        vectorType: state.vectorType,
        distance: state.distance,
        fusion,
      });
    const { db } = this.#context;
    const runKeyword = async () => {
      const { text, values } = statement({ keyword: true, vector: false });
      return (await db.query<CandidateRow>("recall", text, values)).rows;
    };
    const runVector = async (keyword: boolean) => {
      const { text, values } = statement({ keyword, vector: true });
      return (
        await db.withTunedClient("recall", (client) => client.query<CandidateRow>(text, values))
      ).rows;
    };
    // Hybrid: the two stages on two connections at once, fused here by the shared functions
    // (`fused` computed in SQL is then not used), or both and the fusion in one statement.
    const concurrent =
      this.#context.hybridExecution === "concurrent" && tsQuery !== null && vector !== null;
    let rows: CandidateRow[] = [];
    let jsFused: FusedCandidate[] | undefined;
    if (concurrent) {
      const [keywordRows, vectorRows] = await Promise.all([runKeyword(), runVector(false)]);
      const keywordHits = stageHits(keywordRows).keyword;
      const vectorHits = stageHits(vectorRows).vector;
      jsFused =
        settings.merge_strategy === "rrf"
          ? fuseRrf(keywordHits, vectorHits, settings.rrf_k)
          : fuseWeighted(keywordHits, vectorHits, {
              vector: settings.vector_weight,
              keyword: settings.keyword_weight,
            });
      rows = [...keywordRows, ...vectorRows];
    } else if (vector !== null) {
      rows = await runVector(tsQuery !== null);
    } else if (tsQuery !== null) {
      rows = await runKeyword();
    }

    let candidates: FusedCandidate[];
    let source: RecallExplain["source"];
    let earlyReturn = false;
    const hits = stageHits(rows);
    if (!useVectors) {
      candidates = keywordOnly(hits.keyword);
      source = "keyword";
    } else if (!useKeywords) {
      candidates = vectorOnly(hits.vector);
      source = "vector";
    } else if (
      settings.fts_early_return_score < 1 &&
      hits.keyword.length > 0 &&
      keywordRelevance(hits.keyword[0]!.score) >= settings.fts_early_return_score
    ) {
      // The vector stage ran in the same round trip; a decisive keyword hit still ranks alone.
      candidates = keywordOnly(hits.keyword);
      source = "keyword";
      earlyReturn = true;
    } else {
      candidates = jsFused ?? rows.map(candidateFromRow);
      source = "hybrid";
    }
    const byId = new Map(rows.map((row) => [row.id, row]));
    const items: RankableEntry[] = candidates.map((candidate) => ({
      entry: rowToEntry(byId.get(candidate.id)!),
      candidate,
    }));
    let results = finalizeRecall(items, {
      ...finalize,
      source,
      ...(source === "hybrid" ? { strategy: settings.merge_strategy } : {}),
      ...(earlyReturn ? { earlyReturn } : {}),
      ...(degraded !== undefined ? { degraded } : {}),
    });
    if (results.length === 0 && mode !== "bm25") {
      results = await this.#likeFallback(query, filter, pool, finalize, degraded);
    }
    return withEmbeddings ? this.#attachEmbeddings(results, state) : results;
  }

  /**
   * Entries are selected by the informative terms only: a term found in more than 1% of entries
   * ranks nearly nothing but multiplies the rows to rank. Every term still counts in the score.
   */
  async #selectingTerms<T extends { text: string; prefix: boolean }>(terms: T[]): Promise<T[]> {
    if (terms.length < 2) return terms;
    const common = await this.#commonTerms();
    const informative = terms.filter((term) => term.prefix || !common.has(term.text));
    return informative.length > 0 ? informative : terms;
  }

  /** Lexemes above {@link COMMON_TERM_FREQUENCY}, from ANALYZE's statistics (pg_stats). */
  async #commonTerms(): Promise<Set<string>> {
    const now = Date.now();
    if (this.#common && this.#common.expires > now) return this.#common.terms;
    const terms = new Set<string>();
    try {
      const result = await this.#context.db.pool.query<{
        elems: string[] | null;
        freqs: number[] | null;
      }>(
        `SELECT most_common_elems::text::text[] AS elems, most_common_elem_freqs AS freqs
         FROM pg_stats WHERE schemaname = $1 AND tablename = 'memories' AND attname = 'search'`,
        [this.#context.schema],
      );
      const row = result.rows[0];
      row?.elems?.forEach((lexeme, i) => {
        if ((row.freqs?.[i] ?? 0) > COMMON_TERM_FREQUENCY) terms.add(lexeme);
      });
    } catch {
      // Statistics are an optimisation; without them every term selects.
    }
    this.#common = { terms, expires: now + COMMON_TERMS_TTL_MS };
    return terms;
  }

  async #queryEmbedding(query: string): Promise<number[]> {
    const embedder = this.#context.embedder!;
    const cacheKey = `${embedder.fingerprint}\u0000${query}`;
    const cached = this.#queryEmbeddings.get(cacheKey);
    if (cached) return cached;
    const vector = await embedder.embedOne(query, { purpose: "query" });
    validateEmbedding(vector, embedder.dimensions);
    this.#queryEmbeddings.set(cacheKey, vector);
    if (this.#queryEmbeddings.size > this.#context.settings.recall_cache_size) {
      this.#queryEmbeddings.delete(this.#queryEmbeddings.keys().next().value as string);
    }
    return vector;
  }

  /** Empty query, blank or `*`: the most recent entries, newest first. */
  async #recent(filter: NormalizedFilter, finalize: FinalizeBase): Promise<MemoryEntry[]> {
    const params = new Params();
    const result = await this.#context.db.query<EntryRow>(
      "recall",
      `SELECT ${ENTRY_COLUMNS} FROM ${this.#context.tables.memories} m ${whereClause(filterConditions(filter, params))}
       ORDER BY m.updated_at DESC, m.updated_seq DESC LIMIT ${params.add(finalize.limit)}`,
      params.values,
    );
    const order = new Map(result.rows.map((row, index) => [row.id, index]));
    const items = result.rows.map((row) => ({
      entry: rowToEntry(row),
      candidate: { id: row.id, fused: 1 },
    }));
    // Most recent first, whatever the decay did to the scores.
    return finalizeRecall(items, { ...finalize, source: "recent" }).sort(
      (a, b) => order.get(a.id)! - order.get(b.id)!,
    );
  }

  async #likeFallback(
    query: string,
    filter: NormalizedFilter,
    pool: number,
    finalize: FinalizeBase,
    degraded: string | undefined,
  ): Promise<MemoryEntry[]> {
    const keywords = likeFallbackKeywords(query);
    if (keywords.length === 0) return [];
    const params = new Params();
    const text = likeQuery(this.#context.tables, filter, keywords, pool, params);
    const result = await this.#context.db.query<EntryRow & { fused: number }>(
      "recall",
      text,
      params.values,
    );
    const items = result.rows.map((row) => ({
      entry: rowToEntry(row),
      candidate: { id: row.id, fused: row.fused },
    }));
    return finalizeRecall(items, {
      ...finalize,
      source: "like",
      ...(degraded !== undefined ? { degraded } : {}),
    });
  }

  async #attachEmbeddings(results: MemoryEntry[], state: VectorState): Promise<MemoryEntry[]> {
    if (results.length === 0 || state.dimensions === undefined) return results;
    const rows = await this.#context.db.query<{ memory_id: string; embedding: string }>(
      "recall",
      `SELECT memory_id, embedding::text AS embedding FROM ${this.#context.tables.vectors} WHERE memory_id = ANY($1::text[])`,
      [results.map((entry) => entry.id)],
    );
    const byId = new Map(
      rows.rows.map((row) => [row.memory_id, JSON.parse(row.embedding) as number[]]),
    );
    return results.map((entry) => {
      const embedding = byId.get(entry.id);
      return embedding ? { ...entry, embedding } : entry;
    });
  }
}

/** The keyword and vector lists, best first, as the shared fusion functions take them. */
function stageHits(rows: readonly CandidateRow[]): { keyword: KeywordHit[]; vector: VectorHit[] } {
  const keyword = rows
    .filter((row) => row.keyword_rank !== null)
    .sort((a, b) => Number(a.keyword_rank) - Number(b.keyword_rank))
    .map((row) => ({ id: row.id, score: row.keyword_score! }));
  const vector = rows
    .filter((row) => row.vector_rank !== null)
    .sort((a, b) => Number(a.vector_rank) - Number(b.vector_rank))
    .map((row) => ({ id: row.id, cosine: row.cosine! }));
  return { keyword, vector };
}

function candidateFromRow(row: CandidateRow): FusedCandidate {
  const candidate: FusedCandidate = { id: row.id, fused: row.fused };
  if (row.keyword_rank !== null) {
    candidate.keywordRank = Number(row.keyword_rank);
    candidate.keywordScore = row.keyword_score!;
  }
  if (row.vector_rank !== null) {
    candidate.vectorRank = Number(row.vector_rank);
    candidate.cosine = row.cosine!;
  }
  return candidate;
}
