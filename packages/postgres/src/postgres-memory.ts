import {
  type BackfillOptions,
  type Capabilities,
  type CountOptions,
  checkConflicts,
  type DeleteFilter,
  type DeleteReport,
  type EmbeddingJobReport,
  type EmbeddingProvider,
  EmbeddingWorker,
  type ExportFilter,
  type FlushOptions,
  type GetOptions,
  type HealthReport,
  type ImportEntry,
  type ImportOptions,
  type ImportReport,
  InvalidInputError,
  type JobState,
  type KeyOptions,
  type Lease,
  type ListOptions,
  type Memory,
  MemoryClosedError,
  type MemoryEntry,
  normalizeDeleteFilter,
  normalizeFilter,
  normalizeStoreInput,
  nowIso,
  RecallEngine,
  type RecallOptions,
  type ReindexOptions,
  type StoreInput,
  validateEmbedding,
  validateKey,
  validateLimit,
  validateNamespace,
  validateSessionId,
  withConflict,
} from "@memory/api";
import pg from "pg";
import { Database } from "./database.js";
import type { PostgresBatch } from "./deferred-embeddings.js";
import { embedDocuments, embedMissing, pendingCount, pendingSource } from "./embedding-jobs.js";
import { ENTRY_COLUMNS, type EntryRow, rowToEntry } from "./entry-row.js";
import { filterConditions, type Tables, whereClause } from "./filter-sql.js";
import { type BulkIndexes, importEntries } from "./import-entries.js";
import {
  acquireLease,
  deleteMatchingEntries,
  getJobState,
  releaseLease,
  setJobState,
} from "./lifecycle-sql.js";
import { runMigrations, SCHEMA_VERSION } from "./migrations/index.js";
import {
  type PostgresMemoryOptions,
  type ResolvedPostgresOptions,
  resolvePostgresOptions,
} from "./postgres-options.js";
import { PostgresRecallStages } from "./recall/recall-stages.js";
import { entryTerms } from "./search-terms.js";
import { contentHash, encodeVector, Params, quoteIdent } from "./sql.js";
import { probeStorage } from "./storage-probe.js";
import { ensureTextLanguage } from "./text-language.js";
import {
  createHnswIndex,
  createSearchIndex,
  extensionOf,
  openVectorStore,
  resetVectorStore,
  restoreSearchIndex,
  type VectorState,
} from "./vector-store.js";

const DEFAULT_FLUSH_TIMEOUT_MS = 30_000;
// How long close() waits for deferred embeddings of this process (as SQLite's closeTimeoutMs).
const CLOSE_TIMEOUT_MS = 10_000;

/**
 * PostgreSQL + pgvector memory. Nothing touches the database until the first operation, which
 * migrates the schema (under an advisory lock) and opens the vector table, once.
 */
export class PostgresMemory implements Memory {
  readonly name = "postgres";
  readonly capabilities: Capabilities;
  readonly #options: ResolvedPostgresOptions;
  readonly #embedder: EmbeddingProvider | undefined;
  readonly #db: Database;
  readonly #ownsPool: boolean;
  readonly #schema: string;
  readonly #tables: Tables;
  readonly #stages: PostgresRecallStages;
  readonly #engine: RecallEngine;
  readonly #deferred: EmbeddingWorker<string, PostgresBatch>;
  #ready: Promise<VectorState> | undefined;
  #vector: VectorState | undefined;
  #closed = false;
  #closing: Promise<void> | undefined;
  /** Judges lease expiry (and recall's time decay); the `now` option, default `Date.now`. */
  readonly #now: () => number;

  constructor(options: PostgresMemoryOptions) {
    this.#options = resolvePostgresOptions(options);
    this.#now = options.now ?? Date.now;
    this.#embedder =
      options.embedder && options.embedder.dimensions > 0 ? options.embedder : undefined;
    this.#ownsPool = options.pool === undefined;
    const pool =
      options.pool ??
      new pg.Pool({
        connectionString: options.connectionString,
        max: options.maxConnections ?? 10,
      });
    this.#db = new Database(pool, this.#options.hnsw.efSearch);
    this.#schema = quoteIdent(this.#options.schema);
    this.#tables = {
      memories: `${this.#schema}.memories`,
      vectors: `${this.#schema}.memory_vectors`,
      namespaceStats: `${this.#schema}.namespace_stats`,
    };
    this.#stages = new PostgresRecallStages({
      db: this.#db,
      tables: this.#tables,
      embedder: this.#embedder,
      vectorState: () => this.#vector,
      schema: this.#schema,
      queryCacheSize: this.#options.embeddingCacheMax,
    });
    this.#engine = new RecallEngine({
      settings: this.#options.retrieval,
      embedder: this.#embedder,
      stages: this.#stages,
      ...(options.now ? { now: options.now } : {}),
    });
    const worker = options.embeddingWorker;
    this.#deferred = new EmbeddingWorker(
      pendingSource(
        this.#db,
        this.#tables,
        () =>
          this.#vector && this.#vectorsUsable(this.#vector)
            ? { state: this.#vector, embedder: this.#embedder! }
            : undefined,
        worker?.batchSize ?? 64,
      ),
      worker,
    );
    this.capabilities = {
      keywordSearch: true,
      vectorSearch: this.#embedder !== undefined,
      cjkSearch: true,
      persistent: true,
      multiInstance: true,
      deferredEmbedding: true,
    };
  }

  /** The schema this memory lives in. */
  get schema(): string {
    return this.#options.schema;
  }

  /** Migrates and opens the vector table; safe to call many times (memoised, retried after a failure). */
  async init(): Promise<void> {
    await this.#open();
  }

  #assertOpen(): void {
    if (this.#closed) throw new MemoryClosedError(this.name);
  }

  #init(): Promise<VectorState> {
    this.#ready ??= this.#db
      .withClient("opening the schema", async (client) => {
        await runMigrations(client, this.#options.schema, this.#schema);
        await ensureTextLanguage(
          client,
          this.#options.schema,
          this.#schema,
          this.#options.retrieval.textLanguage,
          this.#options.logger,
        );
        // A bulk import drops the GIN index while it loads; if that process died, rebuild it.
        await restoreSearchIndex(client, this.#schema);
        this.#vector = await openVectorStore(
          client,
          this.#options.schema,
          this.#schema,
          this.#embedder,
          this.#options.hnsw,
        );
        // Rows an earlier process left pending (crash, kill, close timeout) are embedded
        // without `backfill`, once the memory has been open for a moment.
        if (this.#options.deferEmbedding && this.#vectorsUsable(this.#vector)) {
          this.#deferred.resume();
        }
        return this.#vector;
      })
      .catch((error) => {
        // Let the next call try again (the server may be back).
        this.#ready = undefined;
        throw error;
      });
    return this.#ready;
  }

  async #open(): Promise<VectorState> {
    this.#assertOpen();
    return this.#init();
  }

  #vectorOids = new Map<string, Promise<number>>();

  /** The OID of the `vector` type (binary arrays of vectors name it), once per type. */
  #vectorOid(state: VectorState): Promise<number> {
    let oid = this.#vectorOids.get(state.vectorType);
    if (!oid) {
      oid = this.#db
        .query<{ oid: number }>("importEntries", `SELECT $1::regtype::oid::int AS oid`, [
          state.vectorType,
        ])
        .then((result) => result.rows[0]!.oid);
      oid.catch(() => this.#vectorOids.delete(state.vectorType));
      this.#vectorOids.set(state.vectorType, oid);
    }
    return oid;
  }

  #vectorsUsable(state: VectorState): boolean {
    return state.status === "ok" && this.#embedder !== undefined;
  }

  async store(input: StoreInput): Promise<MemoryEntry> {
    const entry = normalizeStoreInput(input);
    const state = await this.#open();
    const usable = this.#vectorsUsable(state);
    if (entry.embedding !== undefined && usable)
      validateEmbedding(entry.embedding, state.dimensions);
    const hash = contentHash(entry.content);
    let vector = usable ? entry.embedding : undefined;
    const defer = usable && vector === undefined && this.#options.deferEmbedding;
    if (usable && vector === undefined && !defer)
      [vector] = await embedDocuments(this.#embedder!, [entry.content], this.#onEmbeddingError);
    const params = new Params();
    const now = nowIso();
    const id = params.add(crypto.randomUUID());
    const nowParam = params.add(now);
    const terms = entryTerms(entry.key, entry.content, this.#options.retrieval.textLanguage);
    const ctes = [
      `up AS (
        INSERT INTO ${this.#tables.memories} AS m
          (id, namespace, key, content, category, session_id, importance, superseded_by, created_at, updated_at, content_hash, search_terms, term_count)
        VALUES (${id}, ${params.add(entry.namespace)}, ${params.add(entry.key)},
          ${params.add(entry.content)}, ${params.add(entry.category)}, ${params.add(entry.sessionId ?? null)},
          ${params.add(entry.importance ?? null)}::float8, NULL, ${nowParam}::timestamptz, ${nowParam}::timestamptz, ${params.add(hash)},
          ${params.add(terms.terms)}, ${params.add(terms.count)}::int)
        ON CONFLICT (namespace, key) DO UPDATE SET
          content = excluded.content, category = excluded.category, session_id = excluded.session_id,
          importance = excluded.importance, superseded_by = NULL, updated_at = excluded.updated_at,
          updated_seq = nextval('${this.#schema}.memory_write_seq'), content_hash = excluded.content_hash,
          search_terms = excluded.search_terms, term_count = excluded.term_count
        RETURNING ${ENTRY_COLUMNS}, m.content_hash
      )`,
    ];
    if (vector !== undefined) {
      ctes.push(`vec AS (
        INSERT INTO ${this.#tables.vectors} (memory_id, content_hash, embedding)
        SELECT id, content_hash, ${params.add(encodeVector(vector))}::${state.vectorType} FROM up
        ON CONFLICT (memory_id) DO UPDATE SET embedding = excluded.embedding, content_hash = excluded.content_hash
      )`);
    } else if (state.dimensions !== undefined) {
      ctes.push(`stale AS (
        DELETE FROM ${this.#tables.vectors} v USING up WHERE v.memory_id = up.id AND v.content_hash <> up.content_hash
      )`);
    }
    const result = await this.#db.query<EntryRow>(
      "store",
      `WITH ${ctes.join(", ")} SELECT * FROM up m`,
      params.values,
    );
    const stored = rowToEntry(result.rows[0]!);
    if (defer) this.#deferred.signal();
    // Conflict detection (conflict_mode) is the shared one of @memory/api, through this recall.
    return withConflict(stored, await checkConflicts(this, stored, this.#options.retrieval));
  }

  async get(key: string, options: GetOptions = {}): Promise<MemoryEntry | null> {
    validateKey(key);
    const namespace = validateNamespace(options.namespace);
    const state = await this.#open();
    const withEmbedding = options.withEmbedding === true && state.dimensions !== undefined;
    const result = await this.#db.query<EntryRow>(
      "get",
      `SELECT ${ENTRY_COLUMNS}${withEmbedding ? ", v.embedding::text AS embedding" : ""}
       FROM ${this.#tables.memories} m
       ${withEmbedding ? `LEFT JOIN ${this.#tables.vectors} v ON v.memory_id = m.id` : ""}
       WHERE m.namespace = $1 AND m.key = $2`,
      [namespace, key],
    );
    const row = result.rows[0];
    return row ? rowToEntry(row) : null;
  }

  async list(options: ListOptions = {}): Promise<MemoryEntry[]> {
    const filter = normalizeFilter(options);
    const limit = validateLimit(options.limit, 100, 1_000_000);
    const offset = validateLimit(options.offset, 0, Number.MAX_SAFE_INTEGER);
    const state = await this.#open();
    if (limit === 0) return [];
    const withEmbeddings = options.withEmbeddings === true && state.dimensions !== undefined;
    const params = new Params();
    const where = whereClause(filterConditions(filter, params));
    const result = await this.#db.query<EntryRow>(
      "list",
      `SELECT ${ENTRY_COLUMNS}${withEmbeddings ? ", v.embedding::text AS embedding" : ""}
       FROM ${this.#tables.memories} m
       ${withEmbeddings ? `LEFT JOIN ${this.#tables.vectors} v ON v.memory_id = m.id` : ""}
       ${where}
       ORDER BY m.updated_at DESC, m.updated_seq DESC
       LIMIT ${params.add(limit)} OFFSET ${params.add(offset)}`,
      params.values,
    );
    return result.rows.map(rowToEntry);
  }

  async count(options: CountOptions = {}): Promise<number> {
    const filter = normalizeFilter(options);
    await this.#open();
    const params = new Params();
    const result = await this.#db.query<{ n: string }>(
      "count",
      `SELECT count(*) AS n FROM ${this.#tables.memories} m ${whereClause(filterConditions(filter, params))}`,
      params.values,
    );
    return Number(result.rows[0]!.n);
  }

  async forget(key: string, options: KeyOptions = {}): Promise<boolean> {
    validateKey(key);
    const namespace = validateNamespace(options.namespace);
    await this.#open();
    const result = await this.#db.query(
      "forget",
      `DELETE FROM ${this.#tables.memories} WHERE namespace = $1 AND key = $2`,
      [namespace, key],
    );
    return (result.rowCount ?? 0) > 0;
  }

  async purgeNamespace(namespace: string): Promise<number> {
    if (namespace === undefined)
      throw new InvalidInputError("purgeNamespace() needs the namespace to delete.");
    const name = validateNamespace(namespace);
    await this.#open();
    const result = await this.#db.query(
      "purgeNamespace",
      `DELETE FROM ${this.#tables.memories} WHERE namespace = $1`,
      [name],
    );
    return result.rowCount ?? 0;
  }

  async purgeSession(sessionId: string, options: KeyOptions = {}): Promise<number> {
    validateSessionId(sessionId);
    const namespace =
      options.namespace === undefined ? undefined : validateNamespace(options.namespace);
    await this.#open();
    const result = await this.#db.query(
      "purgeSession",
      `DELETE FROM ${this.#tables.memories} WHERE session_id = $1 ${namespace === undefined ? "" : "AND namespace = $2"}`,
      namespace === undefined ? [sessionId] : [sessionId, namespace],
    );
    return result.rowCount ?? 0;
  }

  async deleteEntries(filter: DeleteFilter): Promise<DeleteReport> {
    normalizeDeleteFilter(filter);
    await this.#open();
    return deleteMatchingEntries(this.#db, this.#tables.memories, filter);
  }

  async acquireLease(name: string, holder: string, ttlMs: number): Promise<Lease | null> {
    await this.#open();
    return acquireLease(this.#db, this.#schema, this.#now, name, holder, ttlMs);
  }

  async releaseLease(lease: Lease): Promise<boolean> {
    await this.#open();
    return releaseLease(this.#db, this.#schema, lease);
  }

  async getJobState(job: string): Promise<JobState | null> {
    await this.#open();
    return getJobState(this.#db, this.#schema, job);
  }

  async setJobState(job: string, state: JobState): Promise<void> {
    await this.#open();
    return setJobState(this.#db, this.#schema, job, state);
  }

  async topCore(limit: number, options: KeyOptions = {}): Promise<MemoryEntry[]> {
    const max = validateLimit(limit, 10);
    const namespace = validateNamespace(options.namespace);
    await this.#open();
    if (max === 0) return [];
    const result = await this.#db.query<EntryRow>(
      "topCore",
      `SELECT ${ENTRY_COLUMNS} FROM ${this.#tables.memories} m
       WHERE m.namespace = $1 AND m.category = 'core' AND m.superseded_by IS NULL
       ORDER BY m.importance DESC NULLS LAST, m.updated_at DESC, m.updated_seq DESC LIMIT $2`,
      [namespace, max],
    );
    return result.rows.map(rowToEntry);
  }

  async markSuperseded(oldKey: string, newKey: string, options: KeyOptions = {}): Promise<boolean> {
    validateKey(oldKey);
    validateKey(newKey);
    const namespace = validateNamespace(options.namespace);
    // The same rule on every backend, whether the entry exists or not.
    if (oldKey === newKey)
      throw new InvalidInputError(
        "an entry cannot supersede itself: pass the key of the newer entry.",
      );
    await this.#open();
    const result = await this.#db.query(
      "markSuperseded",
      `UPDATE ${this.#tables.memories} SET superseded_by = $3 WHERE namespace = $1 AND key = $2`,
      [namespace, oldKey, newKey],
    );
    return (result.rowCount ?? 0) > 0;
  }

  async *export(filter: ExportFilter = {}): AsyncGenerator<MemoryEntry> {
    const normalized = normalizeFilter(filter, {
      allNamespacesByDefault: true,
      includeSupersededByDefault: true,
    });
    const state = await this.#open();
    const withEmbeddings = filter.withEmbeddings === true && state.dimensions !== undefined;
    const pageSize = 500;
    // Keyset pagination on (created_at, created_seq): each page is one short query, so a
    // million entries stream without a long-held cursor or an OFFSET scan.
    let after: { created: Date; seq: string } | undefined;
    for (;;) {
      this.#assertOpen();
      const params = new Params();
      const conditions = filterConditions(normalized, params);
      if (after) {
        conditions.push(
          `(m.created_at, m.created_seq) > (${params.add(after.created)}::timestamptz, ${params.add(after.seq)}::bigint)`,
        );
      }
      const result = await this.#db.query<EntryRow & { created_seq: string }>(
        "export",
        `SELECT ${ENTRY_COLUMNS}, m.created_seq${withEmbeddings ? ", v.embedding::text AS embedding" : ""}
         FROM ${this.#tables.memories} m
         ${withEmbeddings ? `LEFT JOIN ${this.#tables.vectors} v ON v.memory_id = m.id` : ""}
         ${whereClause(conditions)}
         ORDER BY m.created_at, m.created_seq LIMIT ${params.add(pageSize)}`,
        params.values,
      );
      for (const row of result.rows) yield rowToEntry(row);
      const last = result.rows[result.rows.length - 1];
      if (!last || result.rows.length < pageSize) return;
      after = { created: last.created_at, seq: last.created_seq };
    }
  }

  async importEntries(
    entries: Iterable<ImportEntry> | AsyncIterable<ImportEntry>,
    options: ImportOptions = {},
  ): Promise<ImportReport> {
    const state = await this.#open();
    const usable = this.#vectorsUsable(state);
    const defer = this.#options.deferEmbedding;
    const report = await importEntries(entries, options, {
      tables: this.#tables,
      schema: this.#schema,
      vector: usable ? state : undefined,
      staleVectors: state.dimensions !== undefined,
      embed:
        usable && !defer
          ? (texts) => embedDocuments(this.#embedder!, texts, this.#onEmbeddingError)
          : undefined,
      // The row is the job: the worker reads it back from the table (memory stays bounded).
      onDeferred: usable && defer ? () => this.#deferred.signal() : undefined,
      vectorOid: usable ? await this.#vectorOid(state) : undefined,
      bulk: this.#bulkHooks(state, usable),
      language: this.#options.retrieval.textLanguage,
      transaction: (operation, work) => this.#db.transaction(operation, work),
      assertOpen: () => this.#assertOpen(),
    });
    return report;
  }

  #bulkHooks(state: VectorState, vectors: boolean) {
    const { memories } = this.#tables;
    const gin = `${this.#schema}.memories_search`;
    const hnsw = `${this.#schema}.memory_vectors_hnsw`;
    return {
      empty: async (): Promise<BulkIndexes> => {
        const row = (
          await this.#db.query<{ memories: boolean; vectors: boolean }>(
            "importEntries",
            `SELECT NOT EXISTS (SELECT 1 FROM ${memories}) AS memories,
                    ${vectors ? `NOT EXISTS (SELECT 1 FROM ${this.#tables.vectors})` : "false"} AS vectors`,
          )
        ).rows[0]!;
        return { search: row.memories, vectors: row.vectors };
      },
      dropIndexes: async (which: BulkIndexes) => {
        if (which.search) await this.#db.query("importEntries", `DROP INDEX IF EXISTS ${gin}`);
        if (which.vectors) await this.#db.query("importEntries", `DROP INDEX IF EXISTS ${hnsw}`);
      },
      // The two builds run at once on two connections; each is parallel on the server too
      // (max_parallel_maintenance_workers) when maintenance_work_mem holds the HNSW graph.
      buildIndexes: async (which: BulkIndexes) => {
        const build = (what: string, work: (client: pg.PoolClient) => Promise<void>) =>
          this.#db.withClient(what, async (client) => {
            await client.query(
              `SET maintenance_work_mem = '${this.#options.hnsw.buildMemoryMb}MB'`,
            );
            try {
              await work(client);
            } finally {
              await client.query("RESET maintenance_work_mem");
            }
          });
        await Promise.all([
          which.search
            ? build("building the GIN index", (client) => createSearchIndex(client, this.#schema))
            : undefined,
          which.vectors
            ? build("building the HNSW index", (client) =>
                createHnswIndex(client, this.#schema, extensionOf(state), this.#options.hnsw),
              )
            : undefined,
        ]);
      },
    };
  }

  /** The shared recall engine of `@memory/api` over this schema's {@link PostgresRecallStages}. */
  async recall(query: string, options: RecallOptions = {}): Promise<MemoryEntry[]> {
    // Opened first: the engine asks synchronously whether vectors are usable.
    await this.#open();
    return this.#engine.recall(query, options);
  }

  /** An inline embedding failed (the entry is kept, pending): reported by healthCheck. */
  readonly #onEmbeddingError = (error: unknown): void => {
    this.#deferred.lastError = error;
  };

  async #pending(state: VectorState): Promise<number> {
    return this.#embedder ? pendingCount(this.#db, this.#tables, state) : 0;
  }

  async healthCheck(): Promise<HealthReport> {
    this.#assertOpen();
    const vectorReport = (state?: VectorState): HealthReport["vector"] => {
      const report: HealthReport["vector"] = {
        status: state?.status ?? (this.#embedder ? "degraded" : "disabled"),
      };
      if (this.#embedder) report.providerFingerprint = this.#embedder.fingerprint;
      if (state?.storedFingerprint) report.storedFingerprint = state.storedFingerprint;
      if (state?.reason) report.reason = state.reason;
      return report;
    };
    const pool = this.#db.pool;
    try {
      const state = await this.#init();
      const entries = await this.#db.query<{ n: string }>(
        "healthCheck",
        `SELECT count(*) AS n FROM ${this.#tables.memories}`,
      );
      const storage = await probeStorage(this.#db);
      return {
        ok: storage.writable,
        storage,
        backend: this.name,
        entries: Number(entries.rows[0]!.n),
        pendingEmbeddings: await this.#pending(state),
        vector: vectorReport(state),
        details: {
          schema: this.#options.schema,
          schemaVersion: SCHEMA_VERSION,
          dimensions: state.dimensions,
          // Entries whose content the deferred-embedding worker holds: at most one batch.
          queuedEmbeddings: this.#deferred.pending,
          embeddingWorker: this.#options.deferEmbedding ? this.#deferred.state : "off",
          ...this.#swallowedErrors(state),
          pool: { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount },
        },
      };
    } catch (error) {
      // A health check reports an outage instead of throwing it.
      const vector = vectorReport(this.#vector);
      if (vector.status === "ok") vector.status = "degraded";
      vector.reason = `the database is unavailable: ${(error as Error).message}`;
      return {
        ok: false,
        backend: this.name,
        pendingEmbeddings: 0,
        vector,
        details: {
          schema: this.#options.schema,
          error: (error as Error).message,
          code: (error as { code?: string }).code,
        },
      };
    }
  }

  /** Failures that do not fail an operation, so that healthCheck (and `memory doctor`) shows them. */
  #swallowedErrors(state: VectorState): Record<string, string> {
    const errors: Record<string, string> = {};
    const last = this.#deferred.lastError;
    if (last !== undefined)
      errors.lastEmbeddingError = last instanceof Error ? last.message : String(last);
    if (state.iterativeScanError) errors.iterativeScanError = state.iterativeScanError;
    return errors;
  }

  async reindex(options: ReindexOptions = {}): Promise<EmbeddingJobReport> {
    await this.#open();
    if (!this.#embedder) return { embedded: 0, failed: 0, remaining: 0 };
    const embedder = this.#embedder;
    const state = await this.#db.withClient("reindex", (client) =>
      resetVectorStore(client, this.#options.schema, this.#schema, embedder, this.#options.hnsw),
    );
    this.#vector = state;
    this.#ready = Promise.resolve(state);
    return embedMissing(
      this.#db,
      this.#tables,
      state,
      embedder,
      { ...options, assertOpen: () => this.#assertOpen() },
      "reindex",
    );
  }

  async backfillEmbeddings(options: BackfillOptions = {}): Promise<EmbeddingJobReport> {
    const state = await this.#open();
    if (!this.#embedder) return { embedded: 0, failed: 0, remaining: 0 };
    if (state.status !== "ok") {
      return { embedded: 0, failed: 0, remaining: await this.#pending(state) };
    }
    return embedMissing(
      this.#db,
      this.#tables,
      state,
      this.#embedder,
      { ...options, assertOpen: () => this.#assertOpen() },
      "backfillEmbeddings",
    );
  }

  async flush(options: FlushOptions = {}): Promise<void> {
    this.#assertOpen();
    await this.#deferred.flush(options.timeoutMs ?? DEFAULT_FLUSH_TIMEOUT_MS);
  }

  close(): Promise<void> {
    this.#closing ??= (async () => {
      this.#closed = true;
      try {
        await this.#deferred.close(CLOSE_TIMEOUT_MS, (message) =>
          this.#options.logger(`@memory/postgres: ${message}`),
        );
      } finally {
        this.#stages.clear();
        this.#db.detach();
        if (this.#ownsPool) {
          // An ending pool still emits errors from its last clients; keep them from crashing us.
          this.#db.pool.on("error", () => {});
          await this.#db.pool.end().catch(() => {});
        }
      }
    })();
    return this.#closing;
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }
}

/** Creates a PostgreSQL memory. No I/O happens until the first operation (or `init()`). */
export function createPostgresMemory(options: PostgresMemoryOptions): PostgresMemory {
  return new PostgresMemory(options);
}
