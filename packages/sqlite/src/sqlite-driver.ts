import {
  type Capabilities,
  ConfigError,
  type DeleteReport,
  type DeleteWhere,
  type DriverContext,
  type DriverEmbeddingCache,
  type DriverHealth,
  type DriverLeases,
  type DriverRelations,
  type DriverUsage,
  type DriverVectors,
  type EntryKey,
  type MemoryDriver,
  type MemoryEntry,
  MemoryError,
  type NormalizedFilter,
  type RecallStages,
  type ScanPage,
  type ScanRequest,
  type UnhonouredSettings,
  type WriteBatch,
  type WriteResult,
} from "@memory/api";
import { BackgroundCheckpoint } from "./background-checkpoint.js";
import { deleteMatchingEntries } from "./bulk-delete.js";
import { immediateWithoutWaiting, withBusyRetry } from "./busy-retry.js";
import { EmbeddingCache } from "./embeddings/embedding-cache.js";
import { sqliteVectors } from "./embeddings/pending-vectors.js";
import { QueryVectors } from "./embeddings/query-vectors.js";
import { VectorSpace } from "./embeddings/vector-space.js";
import { countEntries, readEntries, scanEntries } from "./entry-queries.js";
import { healthReport } from "./health-report.js";
import { sqliteLeases } from "./leases.js";
import { migrate } from "./migrations/migrate.js";
import { openDatabase } from "./open-database.js";
import type { Opened } from "./opened-store.js";
import { SqliteRecallStages } from "./recall/sqlite-recall-stages.js";
import { findRelations } from "./relation-rows.js";
import {
  type ResolvedSqliteOptions,
  resolveSqliteOptions,
  type SqliteMemoryOptions,
} from "./sqlite-options.js";
import { StatementCache } from "./statement-cache.js";
import { toStorageError } from "./storage-errors.js";
import { ensureTextLanguage } from "./text-language.js";
import { sqliteUsage } from "./usage/sqlite-usage.js";
import { VectorStore } from "./vectors/vector-store.js";
import { applyWriteBatch } from "./write-batch.js";

/** The storage options of the driver (the rest of `SqliteMemoryOptions` is the facade's). */
export type SqliteDriverOptions = Pick<
  SqliteMemoryOptions,
  "path" | "database" | "embeddingCacheMax" | "checkpoint" | "logger"
>;

/**
 * The SQLite driver: better-sqlite3 + FTS5 + an in-memory int8 vector index over float32
 * vectors stored in the file. Each call runs on the open database with busy retries (another
 * process holding the write lock); a write batch is one IMMEDIATE transaction.
 */
export class SqliteDriver implements MemoryDriver {
  readonly name = "sqlite";
  readonly unhonouredSettings: UnhonouredSettings = {};
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
  readonly #input: SqliteDriverOptions;
  #options: ResolvedSqliteOptions;
  #opened: Opened | undefined;
  #checkpoint: BackgroundCheckpoint | undefined;
  readonly recallStages: RecallStages;
  readonly leases: DriverLeases;
  readonly vectors: DriverVectors;
  readonly embeddingCache: DriverEmbeddingCache;
  readonly relations: DriverRelations;
  readonly usage: DriverUsage;

  constructor(options: SqliteDriverOptions = {}) {
    this.#input = options;
    this.#options = resolveSqliteOptions(options);
    this.recallStages = new SqliteRecallStages(() => this.#opened!);
    const run = <T>(body: (opened: Opened) => T, transaction = false) =>
      this.#run(body, transaction);
    this.leases = sqliteLeases(run);
    this.vectors = sqliteVectors(run);
    this.relations = {
      find: (query) => run((opened) => findRelations(opened.statements, query)),
    };
    this.usage = sqliteUsage(run);
    this.embeddingCache = {
      lookup: (texts, fingerprint) => run((opened) => opened.cache.lookup(texts, fingerprint)),
      save: (items, fingerprint) => run((opened) => opened.cache.save(items, fingerprint)),
    };
  }

  /** The open database file (for tools that read it beside the driver). */
  get file(): string | undefined {
    return this.#opened?.connection.file;
  }

  async open(context: DriverContext): Promise<void> {
    this.#options = resolveSqliteOptions({
      ...this.#input,
      ...context.settings,
      logger: context.logger,
    });
    await withBusyRetry(() => this.#openNow(context));
  }

  #openNow(context: DriverContext): void {
    const connection = openDatabase(this.#input);
    const options = this.#options;
    try {
      migrate(connection.db, connection.file, options.logger);
      ensureTextLanguage(connection.db, options.retrieval.textLanguage, options.logger);
      const statements = new StatementCache(connection.db);
      const cache = new EmbeddingCache(connection.db, options.embeddingCacheMax);
      const provider = context.embedder;
      const space = new VectorSpace(statements);
      space.open(provider, connection.file, options.logger);
      const vectors = new VectorStore(statements);
      vectors.reset(provider?.dimensions ?? 0);
      const queries = new QueryVectors(provider);
      this.#opened = { connection, statements, provider, space, queries, cache, vectors, options };
      if (options.checkpoint === "background" && connection.owned && connection.file !== ":memory:")
        this.#checkpoint = startCheckpoints(connection, options.logger);
    } catch (error) {
      if (connection.owned) connection.db.close();
      const typed = toStorageError(error, connection.file);
      if (MemoryError.isInstance(typed)) throw typed;
      throw new ConfigError(
        `Cannot prepare the memory database ${connection.file}: ${error instanceof Error ? error.message : String(error)}.`,
        { cause: error },
      );
    }
  }

  async close(): Promise<void> {
    const opened = this.#opened;
    this.#opened = undefined;
    const checkpoint = this.#checkpoint;
    this.#checkpoint = undefined;
    // The thread's connection first: the last one to close checkpoints and removes the WAL.
    await checkpoint?.stop();
    if (opened?.connection.owned) opened.connection.db.close();
  }

  /**
   * Runs `body` on the open database (in an IMMEDIATE transaction when it writes, with now and
   * then a merge step of the full-text index: fts-upkeep.ts), retrying on a timer while another
   * process holds the lock; a failure is a typed storage error.
   */
  async #run<T>(body: (opened: Opened) => T, transaction = false): Promise<T> {
    const opened = this.#opened;
    if (!opened) throw new Error("the SQLite driver is not open");
    // Every write transaction counts toward the next merge step of the full-text index.
    const write = (opened: Opened) => {
      const result = body(opened);
      opened.connection.ftsUpkeep.afterWrite(opened.connection.db);
      return result;
    };
    try {
      return await withBusyRetry(() =>
        transaction
          ? immediateWithoutWaiting(opened.statements, () => write(opened))
          : body(opened),
      );
    } catch (error) {
      if (MemoryError.isInstance(error)) throw error;
      // A failed write was rolled back; vectors it wrote may have reached the in-memory index.
      opened.vectors.discard();
      throw toStorageError(error, opened.connection.file);
    }
  }

  read(
    keys: readonly EntryKey[],
    options: { withEmbeddings?: boolean } = {},
  ): Promise<(MemoryEntry | undefined)[]> {
    return this.#run((opened) => readEntries(opened, keys, options.withEmbeddings));
  }

  write(batch: WriteBatch): Promise<WriteResult> {
    return this.#run((opened) => applyWriteBatch(opened, batch), true);
  }

  scan(request: ScanRequest): Promise<ScanPage> {
    return this.#run((opened) => scanEntries(opened, request));
  }

  count(filter: NormalizedFilter): Promise<number> {
    return this.#run((opened) => countEntries(opened, filter));
  }

  deleteWhere(filter: DeleteWhere): Promise<DeleteReport> {
    return this.#run((opened) => deleteMatchingEntries(opened, filter));
  }

  health(): Promise<DriverHealth> {
    return this.#run(healthReport);
  }
}

/** The background checkpoint thread, or, when it cannot start, SQLite's own (logged). */
function startCheckpoints(
  connection: Opened["connection"],
  log: (message: string) => void,
): BackgroundCheckpoint | undefined {
  try {
    return BackgroundCheckpoint.start(connection.db, connection.file, log);
  } catch (error) {
    log(
      `@memory/sqlite: checkpoints stay in the connection (no thread): ${error instanceof Error ? error.message : String(error)}`,
    );
    return undefined;
  }
}
