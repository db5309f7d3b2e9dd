import type {
  Capabilities,
  DeleteReport,
  DeleteWhere,
  DriverContext,
  DriverHealth,
  DriverLeases,
  DriverRelations,
  DriverUsage,
  DriverVectors,
  EmbeddingProvider,
  EntryKey,
  MemoryDriver,
  MemoryEntry,
  NormalizedFilter,
  RecallStages,
  ScanPage,
  ScanRequest,
  TextLanguage,
  UnhonouredSettings,
  WriteBatch,
  WriteResult,
} from "@memory/api";
import pg from "pg";
import { BulkLoad } from "./bulk-load.js";
import { Database } from "./database.js";
import { countEntries, type ReadTarget, readEntries, scanEntries } from "./entry-queries.js";
import type { Tables } from "./filter-sql.js";
import { deleteMatchingEntries, postgresLeases } from "./lifecycle-sql.js";
import { runMigrations, SCHEMA_VERSION } from "./migrations/index.js";
import { postgresVectors } from "./pending-vectors.js";
import {
  type PostgresMemoryOptions,
  type ResolvedPostgresOptions,
  resolvePostgresOptions,
} from "./postgres-options.js";
import { PostgresRecallStages } from "./recall/recall-stages.js";
import { findRelations } from "./relation-queries.js";
import { quoteIdent } from "./sql.js";
import { probeStorage } from "./storage-probe.js";
import { ensureTextLanguage } from "./text-language.js";
import { postgresUsage } from "./usage-queries.js";
import {
  openVectorStore,
  resetVectorStore,
  restoreSearchIndex,
  type VectorState,
} from "./vector-store.js";
import { applyWriteBatch, type RunStatement, statementCount } from "./write-batch.js";

/** What exists once the schema is open. */
interface OpenSchema {
  vector: VectorState;
  /** The OID of the `vector` type (binary arrays of vectors name it), when vectors are usable. */
  vectorOid: number | undefined;
  stages: PostgresRecallStages;
  embedder: EmbeddingProvider | undefined;
  language: TextLanguage;
}

/**
 * The PostgreSQL + pgvector driver. Opening migrates the schema (under an advisory lock, so
 * replicas starting together agree) and opens the vector table; every call then runs on the
 * pool, and a write batch of more than one statement is one transaction on one connection.
 */
export class PostgresDriver implements MemoryDriver {
  readonly name = "postgres";
  readonly capabilities: Capabilities = {
    keywordSearch: true,
    vectorSearch: true,
    cjkSearch: true,
    persistent: true,
    multiInstance: true,
    deferredEmbedding: true,
    relations: true,
    usage: true,
  };
  /**
   * Every setting is honoured: recall results are cached under the schema's change token
   * (change-token.ts), which every replica's committed write changes.
   */
  readonly unhonouredSettings: UnhonouredSettings = {};
  readonly #options: ResolvedPostgresOptions;
  readonly #db: Database;
  readonly #ownsPool: boolean;
  readonly #schema: string;
  readonly #tables: Tables;
  readonly #reads: ReadTarget;
  #open: OpenSchema | undefined;
  /** The index plan of the import running now, if any. */
  #bulk: BulkLoad | undefined;
  readonly leases: DriverLeases;
  readonly vectors: DriverVectors;
  readonly relations: DriverRelations;
  readonly usage: DriverUsage;

  /** Validates the storage options (connection, schema, HNSW) at once; no I/O until `open`. */
  constructor(options: PostgresMemoryOptions) {
    this.#options = resolvePostgresOptions(options);
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
      relations: `${this.#schema}.memory_relations`,
      usageEvents: `${this.#schema}.usage_events`,
      usageRecords: `${this.#schema}.usage_records`,
    };
    const driver = this;
    this.#reads = {
      db: this.#db,
      tables: this.#tables,
      get hasVectorTable() {
        return driver.#opened().vector.dimensions !== undefined;
      },
    };
    this.leases = postgresLeases(this.#db, this.#schema);
    const relationsTable = this.#tables.relations;
    this.relations = {
      find: (query) =>
        findRelations(relationsTable, query, (text, values) =>
          this.#db.query("relations", text, values),
        ),
    };
    this.usage = postgresUsage(this.#db, this.#tables);
    this.vectors = postgresVectors({
      db: this.#db,
      tables: this.#tables,
      state: () => this.#opened().vector,
      embedder: () => this.#opened().embedder,
      reset: (embedder) => this.#resetVectors(embedder),
    });
  }

  /** The schema this driver lives in. */
  get schema(): string {
    return this.#options.schema;
  }

  /** The pool (for the health details and the outage report). */
  get pool(): pg.Pool {
    return this.#db.pool;
  }

  #opened(): OpenSchema {
    if (!this.#open) throw new Error("the PostgreSQL driver is not open");
    return this.#open;
  }

  get recallStages(): RecallStages {
    return this.#opened().stages;
  }

  async open(context: DriverContext): Promise<void> {
    const { schema } = this.#options;
    const language = context.settings.textLanguage;
    const vector = await this.#db.withClient("opening the schema", async (client) => {
      await runMigrations(client, schema, this.#schema);
      await ensureTextLanguage(client, schema, this.#schema, language, context.logger);
      // A bulk load may have dropped the GIN index and died; rebuild it.
      await restoreSearchIndex(client, this.#schema);
      return openVectorStore(client, schema, this.#schema, context.embedder, this.#options.hnsw);
    });
    const stages = new PostgresRecallStages({
      db: this.#db,
      tables: this.#tables,
      embedder: context.embedder,
      vectorState: () => this.#open?.vector,
      schema: this.#schema,
      queryCacheSize: this.#options.embeddingCacheMax,
    });
    this.#open = {
      vector,
      vectorOid: await this.#vectorOid(vector),
      stages,
      embedder: context.embedder,
      language,
    };
  }

  async #vectorOid(state: VectorState): Promise<number | undefined> {
    if (state.status !== "ok") return undefined;
    const result = await this.#db.query<{ oid: number }>(
      "opening the schema",
      "SELECT $1::regtype::oid::int AS oid",
      [state.vectorType],
    );
    return result.rows[0]!.oid;
  }

  async #resetVectors(embedder: EmbeddingProvider): Promise<void> {
    const open = this.#opened();
    const state = await this.#db.withClient("reindex", (client) =>
      resetVectorStore(client, this.#options.schema, this.#schema, embedder, this.#options.hnsw),
    );
    open.vectorOid = await this.#vectorOid(state);
    open.vector = state;
  }

  async close(): Promise<void> {
    this.#open?.stages.clear();
    this.#db.detach();
    if (this.#ownsPool) {
      // An ending pool still emits errors from its last clients; keep them from crashing us.
      this.#db.pool.on("error", () => {});
      await this.#db.pool.end().catch(() => {});
    }
  }

  read(
    keys: readonly EntryKey[],
    options: { withEmbeddings?: boolean } = {},
  ): Promise<(MemoryEntry | undefined)[]> {
    return readEntries(this.#reads, keys, options.withEmbeddings);
  }

  /** One statement runs alone (atomic by itself, one round trip); more run in one transaction. */
  async write(batch: WriteBatch): Promise<WriteResult> {
    const open = this.#opened();
    if (this.#bulk && batch.refuseInvalidEntries)
      await this.#bulk.beforeBatch(batch.upserts.length);
    const target = {
      tables: this.#tables,
      schema: this.#schema,
      language: open.language,
      vectors:
        open.vectorOid === undefined
          ? undefined
          : { type: open.vector.vectorType, oid: open.vectorOid },
      staleVectors: open.vector.dimensions !== undefined,
    };
    const operation = writeOperation(batch);
    if (statementCount(batch) <= 1) {
      const run: RunStatement = (text, values) => this.#db.query(operation, text, values);
      return applyWriteBatch(batch, target, run);
    }
    return this.#db.transaction(operation, (client) =>
      applyWriteBatch(batch, target, (text, values) => client.query(text, values)),
    );
  }

  /** An import: large batches into empty tables skip index maintenance (see {@link BulkLoad}). */
  async bulkLoad<T>(work: () => Promise<T>): Promise<T> {
    // A second import at the same time keeps the indexes; the first one's plan stands.
    if (this.#bulk) return work();
    const bulk = await BulkLoad.start({
      db: this.#db,
      tables: this.#tables,
      schema: this.#schema,
      hnsw: this.#options.hnsw,
      vector: () => this.#opened().vector,
    });
    this.#bulk = bulk;
    try {
      return await work();
    } finally {
      this.#bulk = undefined;
      await bulk.finish();
    }
  }

  scan(request: ScanRequest): Promise<ScanPage> {
    return scanEntries(this.#reads, request);
  }

  count(filter: NormalizedFilter): Promise<number> {
    return countEntries(this.#reads, filter);
  }

  deleteWhere(filter: DeleteWhere): Promise<DeleteReport> {
    return deleteMatchingEntries(this.#db, this.#tables.memories, filter);
  }

  async health(): Promise<DriverHealth> {
    const open = this.#opened();
    const counts = await this.#db.query<{ n: string; events: string }>(
      "healthCheck",
      `SELECT (SELECT count(*) FROM ${this.#tables.memories}) AS n,
         (SELECT count(*) FROM ${this.#tables.usageEvents}) AS events`,
    );
    const entries = counts.rows[0]!;
    const pool = this.#db.pool;
    return {
      entries: Number(entries.n),
      storage: await probeStorage(this.#db),
      details: {
        schema: this.#options.schema,
        schemaVersion: SCHEMA_VERSION,
        dimensions: open.vector.dimensions,
        // Learnt by the first vector search (pgvector older than 0.8).
        ...(open.vector.iterativeScanError
          ? { iterativeScanError: open.vector.iterativeScanError }
          : {}),
        // Bounded by hygiene (usage_event_retention_days, usage_event_max).
        usageEvents: Number(entries.events),
        pool: { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount },
      },
    };
  }
}

/** The operation a batch stands for, as error messages name it. */
function writeOperation(batch: WriteBatch): string {
  if (batch.refuseInvalidEntries) return "importEntries";
  if (batch.upserts.length > 0) return "store";
  if (batch.deletes.length > 0) return "forget";
  if (batch.marks?.length) return "pin or snooze";
  if (batch.relations?.length) return "relate";
  if (batch.unrelations?.length) return "unrelate";
  return "markSuperseded";
}
