import {
  type BackfillOptions,
  type Capabilities,
  ConfigError,
  type CountOptions,
  checkConflicts,
  type DeleteFilter,
  type DeleteReport,
  type EmbeddingJobReport,
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
  MemoryError,
  NoneMemory,
  RecallEngine,
  type RecallOptions,
  type ReindexOptions,
  type StoreInput,
  validateKey,
  validateNamespace,
  withConflict,
} from "@memory/api";
import { deleteMatchingEntries } from "./bulk-delete.js";
import { withBusyRetry } from "./busy-retry.js";
import { forgetEntry, purgeNamespaceEntries, purgeSessionEntries } from "./delete-entries.js";
import { EmbedderState } from "./embeddings/embedder-state.js";
import { EmbeddingCache } from "./embeddings/embedding-cache.js";
import {
  backfillEmbeddings,
  pendingSource,
  reindexEmbeddings,
} from "./embeddings/embedding-jobs.js";
import {
  countEntries,
  EXPORT_PAGE,
  exportPage,
  exportQuery,
  getEntry,
  listEntries,
  topCoreEntries,
} from "./entry-queries.js";
import { healthReport } from "./health-report.js";
import { importEntries } from "./import/import-entries.js";
import { acquireLease, getJobState, releaseLease, setJobState } from "./leases.js";
import { migrate } from "./migrations/migrate.js";
import { openDatabase } from "./open-database.js";
import type { Opened } from "./opened-store.js";
import { SqliteRecallStages } from "./recall/sqlite-recall-stages.js";
import { type EntryRow, toEntry } from "./row-mapping.js";
import {
  type ResolvedSqliteOptions,
  resolveSqliteOptions,
  type SqliteMemoryOptions,
} from "./sqlite-options.js";
import { StatementCache } from "./statement-cache.js";
import { toStorageError } from "./storage-errors.js";
import { probeStorage } from "./storage-probe.js";
import { storeEntry } from "./store-entry.js";
import { ensureTextLanguage } from "./text-language.js";
import { VectorStore } from "./vectors/vector-store.js";

/** The embedded default backend: better-sqlite3 + FTS5 + an in-memory int8 vector index. */
export class SqliteMemory implements Memory {
  readonly capabilities: Capabilities = {
    keywordSearch: true,
    vectorSearch: true,
    cjkSearch: true,
    persistent: true,
    multiInstance: true,
    deferredEmbedding: true,
  };
  readonly #input: SqliteMemoryOptions;
  readonly #options: ResolvedSqliteOptions;
  readonly #engine: RecallEngine;
  #init: Promise<Opened> | undefined;
  #opened: Opened | undefined;
  #fallback: NoneMemory | undefined;
  #closed = false;

  constructor(options: SqliteMemoryOptions = {}) {
    this.#input = options;
    this.#options = resolveSqliteOptions(options);
    this.#engine = new RecallEngine({
      settings: this.#options.retrieval,
      embedder: options.embedder,
      stages: new SqliteRecallStages(() => this.#opened!),
      ...(options.now ? { now: options.now } : {}),
    });
  }

  get name(): string {
    return this.#fallback ? "none" : "sqlite";
  }

  /** Opens and migrates the database once; every operation awaits it. */
  init(): Promise<void> {
    return this.#ready().then(() => undefined);
  }

  #ready(): Promise<Opened> {
    if (this.#closed) return Promise.reject(new MemoryClosedError("sqlite"));
    this.#init ??= withBusyRetry(() => this.#open()).catch((error: unknown) => {
      this.#init = undefined;
      throw error;
    });
    return this.#init;
  }

  #open(): Opened {
    const connection = openDatabase(this.#input);
    try {
      migrate(connection.db, connection.file, this.#options.logger);
      ensureTextLanguage(connection.db, this.#options.retrieval.textLanguage, this.#options.logger);
      const statements = new StatementCache(connection.db);
      const cache = new EmbeddingCache(connection.db, this.#options.embeddingCacheMax);
      const embedder = new EmbedderState(
        statements,
        cache,
        this.#input.embedder,
        this.#options.logger,
      );
      embedder.refresh(connection.file);
      const vectors = new VectorStore(statements);
      vectors.reset(embedder.provider?.dimensions ?? 0);
      const queue = new EmbeddingWorker(
        pendingSource(() => opened),
        this.#input.embeddingWorker,
      );
      const opened: Opened = {
        connection,
        statements,
        embedder,
        vectors,
        queue,
        options: this.#options,
        isClosed: () => this.#closed,
        invalidate: (namespace) => this.#engine.invalidate(namespace),
      };
      this.#opened = opened;
      // Rows an earlier process left pending (crash, kill, close timeout) are embedded without
      // `backfill`, once the store has been open for a moment.
      if (this.#options.deferEmbedding && embedder.usable) queue.resume();
      return opened;
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

  /** Runs `body` on the open database, or on the none backend after a tolerated open failure. */
  async #use<T>(
    body: (opened: Opened) => T | Promise<T>,
    none: (fallback: NoneMemory) => Promise<T>,
    retry = true,
  ): Promise<T> {
    if (this.#closed) throw new MemoryClosedError("sqlite");
    if (this.#fallback) return none(this.#fallback);
    let opened: Opened;
    try {
      opened = await this.#ready();
    } catch (error) {
      if (!this.#options.fallbackToNone || this.#closed) throw error;
      const reason = error instanceof Error ? error.message : String(error);
      this.#options.logger(
        `@memory/sqlite: FALLING BACK TO THE NONE BACKEND, NOTHING WILL BE REMEMBERED: ${reason}`,
      );
      this.#fallback = new NoneMemory(reason);
      return none(this.#fallback);
    }
    if (this.#closed) throw new MemoryClosedError("sqlite");
    try {
      return await (retry ? withBusyRetry(() => body(opened)) : body(opened));
    } catch (error) {
      if (MemoryError.isInstance(error)) throw error;
      // A failed write was rolled back; vectors it wrote may have reached the in-memory index.
      opened.vectors.discard();
      throw toStorageError(error, opened.connection.file);
    }
  }

  async store(input: StoreInput): Promise<MemoryEntry> {
    const entry = await this.#use(
      (opened) => storeEntry(opened, input),
      (none) => none.store(input),
    );
    if (this.#fallback) return entry;
    // Conflict detection (conflict_mode) is the shared one of @memory/api, through this recall.
    return withConflict(entry, await checkConflicts(this, entry, this.#options.retrieval));
  }

  async get(key: string, options: GetOptions = {}): Promise<MemoryEntry | null> {
    return this.#use(
      (opened) => getEntry(opened, key, options),
      (none) => none.get(),
    );
  }

  async recall(query: string, options: RecallOptions = {}): Promise<MemoryEntry[]> {
    return this.#use(
      () => this.#engine.recall(query, options),
      (none) => none.recall(),
    );
  }

  async list(options: ListOptions = {}): Promise<MemoryEntry[]> {
    return this.#use(
      (opened) => listEntries(opened, options),
      (none) => none.list(),
    );
  }

  async count(options: CountOptions = {}): Promise<number> {
    return this.#use(
      (opened) => countEntries(opened, options),
      (none) => none.count(),
    );
  }

  async forget(key: string, options: KeyOptions = {}): Promise<boolean> {
    return this.#use(
      (opened) => forgetEntry(opened, key, options),
      (none) => none.forget(),
    );
  }

  async purgeNamespace(namespace: string): Promise<number> {
    return this.#use(
      (opened) => purgeNamespaceEntries(opened, namespace),
      (none) => none.purgeNamespace(),
    );
  }

  async purgeSession(sessionId: string, options: KeyOptions = {}): Promise<number> {
    return this.#use(
      (opened) => purgeSessionEntries(opened, sessionId, options),
      (none) => none.purgeSession(),
    );
  }

  async *export(filter: ExportFilter = {}): AsyncIterable<MemoryEntry> {
    if (this.#closed) throw new MemoryClosedError("sqlite");
    const query = exportQuery(filter);
    let after: [string, number] = ["", -1];
    for (;;) {
      const rows = await this.#use(
        (opened) => exportPage(opened, query, after),
        async () => [] as EntryRow[],
      );
      for (const row of rows) yield toEntry(row);
      const last = rows.at(-1);
      if (!last || rows.length < EXPORT_PAGE) return;
      after = [last.created_at, last.doc_id];
    }
  }

  async importEntries(
    entries: Iterable<ImportEntry> | AsyncIterable<ImportEntry>,
    options: ImportOptions = {},
  ): Promise<ImportReport> {
    return this.#use(
      (opened) => importEntries(opened, entries, options),
      (none) => none.importEntries(entries),
      false,
    );
  }

  async topCore(limit: number, options: KeyOptions = {}): Promise<MemoryEntry[]> {
    return this.#use(
      (opened) => topCoreEntries(opened, limit, options),
      (none) => none.topCore(),
    );
  }

  async markSuperseded(oldKey: string, newKey: string, options: KeyOptions = {}): Promise<boolean> {
    return this.#use(
      (opened) => {
        const namespace = validateNamespace(options.namespace);
        if (validateKey(newKey) === validateKey(oldKey)) {
          throw new InvalidInputError(
            `An entry cannot supersede itself (${JSON.stringify(oldKey)}): pass the key of the newer entry as newKey.`,
          );
        }
        const result = opened.statements
          .get("UPDATE memories SET superseded_by = ? WHERE namespace = ? AND key = ?")
          .run(validateKey(newKey), namespace, validateKey(oldKey));
        this.#engine.invalidate(namespace);
        return result.changes > 0;
      },
      (none) => none.markSuperseded(),
    );
  }

  async deleteEntries(filter: DeleteFilter): Promise<DeleteReport> {
    return this.#use(
      (opened) => deleteMatchingEntries(opened, filter),
      (none) => none.deleteEntries(filter),
    );
  }

  async acquireLease(name: string, holder: string, ttlMs: number): Promise<Lease | null> {
    return this.#use(
      (opened) => acquireLease(opened, this.#input.now ?? Date.now, name, holder, ttlMs),
      (none) => none.acquireLease(name, holder, ttlMs),
    );
  }

  async releaseLease(lease: Lease): Promise<boolean> {
    return this.#use(
      (opened) => releaseLease(opened, lease),
      (none) => none.releaseLease(lease),
    );
  }

  async getJobState(job: string): Promise<JobState | null> {
    return this.#use(
      (opened) => getJobState(opened, job),
      (none) => none.getJobState(job),
    );
  }

  async setJobState(job: string, state: JobState): Promise<void> {
    return this.#use(
      (opened) => setJobState(opened, job, state),
      (none) => none.setJobState(job, state),
    );
  }

  async healthCheck(): Promise<HealthReport> {
    return this.#use(
      (opened) => {
        const report = healthReport(opened);
        const storage = probeStorage(opened);
        return { ...report, ok: report.ok && storage.writable, storage };
      },
      (none) => none.healthCheck(),
    );
  }

  async reindex(options: ReindexOptions = {}): Promise<EmbeddingJobReport> {
    return this.#use(
      (opened) => reindexEmbeddings(opened, options),
      (none) => none.reindex(),
    );
  }

  async backfillEmbeddings(options: BackfillOptions = {}): Promise<EmbeddingJobReport> {
    return this.#use(
      (opened) => backfillEmbeddings(opened, options),
      (none) => none.backfillEmbeddings(),
    );
  }

  async flush(options: FlushOptions = {}): Promise<void> {
    if (this.#closed) throw new MemoryClosedError("sqlite");
    await this.#opened?.queue.flush(options.timeoutMs ?? 30_000);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    const opened = this.#opened;
    if (opened) {
      await opened.queue.close(this.#options.closeTimeoutMs, (message) =>
        this.#options.logger(`@memory/sqlite: ${message}`),
      );
    }
    this.#closed = true;
    this.#engine.invalidate();
    await this.#fallback?.close();
    if (opened?.connection.owned) opened.connection.db.close();
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }
}

/** Creates the SQLite memory. Nothing is opened until the first operation (or `init()`). */
export function createSqliteMemory(options: SqliteMemoryOptions = {}): SqliteMemory {
  return new SqliteMemory(options);
}
