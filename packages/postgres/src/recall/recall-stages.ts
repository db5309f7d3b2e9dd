import type {
  EmbeddingProvider,
  IndexedEntry,
  KeywordStageRequest,
  KeywordStageResult,
  MemoryEntry,
  NormalizedFilter,
  RecallStages,
  VectorAvailability,
  VectorStageHit,
  VectorStageRequest,
} from "@memory/api";
import { KeywordStatisticsCache } from "@memory/core";
import { readChangeToken } from "../change-token.js";
import type { Database } from "../database.js";
import type { Tables } from "../filter-sql.js";
import type { VectorState } from "../vector-store.js";
import { likeEntries, recentEntries, sessionNeighbors, withEmbeddings } from "./entry-lookups.js";
import { keywordStage } from "./keyword-stage.js";
import { LexemeShares } from "./lexeme-shares.js";
import { QueryEmbeddings } from "./query-embeddings.js";
import { cosines, vectorHits } from "./vector-stage.js";

export interface PostgresStagesOptions {
  db: Database;
  tables: Tables;
  embedder: EmbeddingProvider | undefined;
  /** The vector state of the opened schema (the memory opens it before every recall). */
  vectorState: () => VectorState | undefined;
  /** The quoted schema (its `change_token()`). */
  schema: string;
  /** Query embeddings kept (`embedding_cache_max`); 0 keeps none. */
  queryCacheSize: number;
}

/**
 * PostgreSQL's storage access for `@memory/api`'s `RecallEngine`: the engine owns ranking,
 * scores, fusion, fallbacks and `explain`. Each stage is one or two statements over the pool;
 * the engine runs the keyword and the vector stage of a hybrid recall at once, so they go out
 * on two connections together.
 */
export class PostgresRecallStages implements RecallStages {
  readonly #options: PostgresStagesOptions;
  readonly #queries: QueryEmbeddings | undefined;
  readonly #statistics = new KeywordStatisticsCache();
  readonly #shares = new LexemeShares();

  constructor(options: PostgresStagesOptions) {
    this.#options = options;
    this.#queries = options.embedder
      ? new QueryEmbeddings(options.embedder, options.queryCacheSize)
      : undefined;
  }

  #state(): VectorState {
    const state = this.#options.vectorState();
    if (!state) throw new Error("PostgresRecallStages: the schema is not open yet");
    return state;
  }

  recent(filter: NormalizedFilter, limit: number): Promise<MemoryEntry[]> {
    return recentEntries(this.#options.db, this.#options.tables, filter, limit);
  }

  keyword(request: KeywordStageRequest): Promise<KeywordStageResult> {
    return keywordStage(this.#options.db, this.#options.tables, request, {
      statistics: this.#statistics,
      token: () => this.changeToken(),
      shares: this.#shares,
    });
  }

  vectorAvailability(): VectorAvailability {
    const state = this.#options.vectorState();
    if (state?.status === "ok" && this.#queries) return { usable: true };
    return {
      usable: false,
      reason: state?.reason ?? "the vector store is not open: recall is keyword-only",
    };
  }

  embedQuery(query: string, signal?: AbortSignal): Promise<Float32Array> {
    if (!this.#queries) return Promise.reject(new Error("no embedding provider is configured"));
    return this.#queries.embed(query, this.#options.vectorState()?.dimensions, signal);
  }

  vector(request: VectorStageRequest): Promise<VectorStageHit[]> {
    return vectorHits(this.#options.db, this.#options.tables, this.#state(), request);
  }

  neighbors(
    ids: readonly string[],
    filter: NormalizedFilter & { namespace: string },
  ): Promise<Map<string, IndexedEntry[]>> {
    return sessionNeighbors(this.#options.db, this.#options.tables, ids, filter);
  }

  cosines(ids: readonly string[], vector: Float32Array): Promise<Map<string, number>> {
    return cosines(this.#options.db, this.#options.tables, this.#state(), ids, vector);
  }

  like(
    keywords: readonly string[],
    filter: NormalizedFilter,
    pool: number,
  ): Promise<MemoryEntry[]> {
    return likeEntries(this.#options.db, this.#options.tables, keywords, filter, pool);
  }

  attachEmbeddings(results: MemoryEntry[]): Promise<MemoryEntry[]> {
    if (this.#options.vectorState()?.dimensions === undefined) return Promise.resolve(results);
    return withEmbeddings(this.#options.db, this.#options.tables, results);
  }

  /**
   * The schema's change token (change-token.ts): every replica's committed write changes it, and
   * it is `undefined` (nothing cached) while a write is in progress. One short statement, far
   * cheaper than the recall it saves.
   */
  changeToken(): Promise<string | undefined> {
    return readChangeToken(this.#options.db, this.#options.schema);
  }

  /** Drops the cached query embeddings (on close). */
  clear(): void {
    this.#queries?.clear();
    this.#statistics.clear();
    this.#shares.clear();
  }
}
