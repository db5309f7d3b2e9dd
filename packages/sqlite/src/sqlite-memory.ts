import {
  type BackfillOptions,
  type Capabilities,
  ConfigError,
  type CountOptions,
  type EmbeddingJobReport,
  type ExportFilter,
  type FlushOptions,
  type GetOptions,
  type HealthReport,
  type ImportEntry,
  type ImportOptions,
  type ImportReport,
  InvalidInputError,
  type KeyOptions,
  type ListOptions,
  type Memory,
  MemoryClosedError,
  type MemoryEntry,
  MemoryError,
  NoneMemory,
  type NormalizedImportEntry,
  normalizeFilter,
  normalizeImportEntry,
  normalizeStoreInput,
  nowIso,
  RecallCache,
  type RecallOptions,
  type ReindexOptions,
  type StoreInput,
  validateEmbedding,
  validateKey,
  validateLimit,
  validateNamespace,
  validateSessionId,
} from "@memory/api";
import { withBusyRetry } from "./busy-retry.js";
import { EmbedderState } from "./embeddings/embedder-state.js";
import { EmbeddingCache } from "./embeddings/embedding-cache.js";
import { type EmbeddingJob, EmbeddingQueue } from "./embeddings/embedding-queue.js";
import { upsertEntry } from "./entry-writer.js";
import { filterSql } from "./filter-sql.js";
import { migrate } from "./migrations/migrate.js";
import { SCHEMA_VERSION } from "./migrations/schema.js";
import { type OpenedDatabase, openDatabase } from "./open-database.js";
import { runRecall } from "./recall/recall-pipeline.js";
import { ENTRY_COLUMNS, type EntryRow, toEntry } from "./row-mapping.js";
import {
  type ResolvedSqliteOptions,
  resolveSqliteOptions,
  type SqliteMemoryOptions,
} from "./sqlite-options.js";
import { StatementCache } from "./statement-cache.js";
import { VectorStore } from "./vectors/vector-store.js";

// Larger transactions give FTS5 fewer, bigger segments to merge: 1000 -> 5000 measured +15%.
const IMPORT_BATCH = 5000;
const EXPORT_PAGE = 500;
const WITH_VECTOR = `LEFT JOIN memory_vectors v ON v.doc_id = m.doc_id AND v.content_hash = m.content_hash`;

interface Opened {
  connection: OpenedDatabase;
  statements: StatementCache;
  embedder: EmbedderState;
  vectors: VectorStore;
  queue: EmbeddingQueue;
}

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
  readonly #cache: RecallCache<MemoryEntry[]>;
  #init: Promise<Opened> | undefined;
  #opened: Opened | undefined;
  #fallback: NoneMemory | undefined;
  #closed = false;
  #dataVersion = -1;

  constructor(options: SqliteMemoryOptions = {}) {
    this.#input = options;
    this.#options = resolveSqliteOptions(options);
    this.#cache = new RecallCache({
      maxEntries: this.#options.recallCacheSize,
      ttlMs: this.#options.recallCacheTtlSeconds * 1000,
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
      const queue = new EmbeddingQueue(this.#options.embeddingBatchSize, (jobs) =>
        this.#embedJobs(jobs),
      );
      this.#opened = { connection, statements, embedder, vectors, queue };
      return this.#opened;
    } catch (error) {
      if (connection.owned) connection.db.close();
      if (MemoryError.isInstance(error)) throw error;
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
    return retry ? withBusyRetry(() => body(opened)) : body(opened);
  }

  #invalidate(namespace?: string): void {
    this.#cache.invalidate(namespace);
  }

  /** Drops cached recalls when another connection wrote (PRAGMA data_version moved). */
  #syncCache(opened: Opened): void {
    const version = opened.connection.db.pragma("data_version", { simple: true }) as number;
    if (version !== this.#dataVersion) {
      this.#dataVersion = version;
      this.#cache.invalidate();
    }
  }

  #storedDims(opened: Opened): number | undefined {
    const row = opened.statements
      .get("SELECT value FROM meta WHERE key = 'embedding_dims'")
      .get() as { value: string } | undefined;
    return row ? Number(row.value) : undefined;
  }

  /** Checks a caller-given vector; undefined when it must not be written (other vector space). */
  #givenVector(opened: Opened, embedding: number[] | undefined): number[] | undefined {
    if (!embedding) return undefined;
    const { embedder } = opened;
    if (embedder.provider) {
      validateEmbedding(embedding, embedder.provider.dimensions);
      return embedder.usable ? embedding : undefined;
    }
    const dims = this.#storedDims(opened);
    validateEmbedding(embedding, dims);
    if (dims === undefined) {
      opened.statements
        .get("INSERT OR REPLACE INTO meta (key, value) VALUES ('embedding_dims', ?)")
        .run(String(embedding.length));
      opened.vectors.reset(embedding.length);
    }
    return embedding;
  }

  async #embedJobs(jobs: EmbeddingJob[]): Promise<void> {
    const opened = this.#opened;
    if (!opened?.embedder.usable || this.#closed) return;
    const vectors = await opened.embedder.embed(
      jobs.map((job) => job.content),
      "document",
    );
    if (this.#closed) return;
    await withBusyRetry(() =>
      opened.connection.db
        .transaction(() => {
          jobs.forEach((job, index) => {
            opened.vectors.write(job.docId, job.namespace, job.hash, vectors[index]!);
          });
        })
        .immediate(),
    );
    for (const namespace of new Set(jobs.map((job) => job.namespace))) this.#invalidate(namespace);
  }

  async store(input: StoreInput): Promise<MemoryEntry> {
    return this.#use(
      async (opened) => {
        const entry = normalizeStoreInput(input);
        let vector: ArrayLike<number> | undefined = this.#givenVector(opened, entry.embedding);
        const { embedder } = opened;
        if (!vector && embedder.usable && !this.#options.deferEmbedding) {
          try {
            [vector] = await embedder.embed([entry.content], "document");
          } catch (error) {
            // The write must not be lost: stored without a vector, counted as pending.
            opened.queue.lastError = error;
          }
          if (this.#closed) throw new MemoryClosedError("sqlite");
        }
        const row = await withBusyRetry(() =>
          opened.connection.db
            .transaction(() => {
              const stored = upsertEntry(opened.statements, entry, { updatedAt: nowIso() });
              if (vector)
                opened.vectors.write(stored.doc_id, stored.namespace, stored.content_hash, vector);
              return stored;
            })
            .immediate(),
        );
        this.#invalidate(row.namespace);
        if (!vector && embedder.usable && this.#options.deferEmbedding) {
          opened.queue.enqueue({
            docId: row.doc_id,
            namespace: row.namespace,
            hash: row.content_hash,
            content: row.content,
          });
        }
        return toEntry(row);
      },
      (none) => none.store(input),
    );
  }

  async get(key: string, options: GetOptions = {}): Promise<MemoryEntry | null> {
    return this.#use(
      (opened) => {
        const namespace = validateNamespace(options.namespace);
        const row = opened.statements
          .get(
            `SELECT ${ENTRY_COLUMNS}, ${options.withEmbedding ? "v.embedding" : "NULL AS embedding"} FROM memories m ${WITH_VECTOR} WHERE m.namespace = ? AND m.key = ?`,
          )
          .get(namespace, validateKey(key)) as EntryRow | undefined;
        return row ? toEntry(row) : null;
      },
      (none) => none.get(),
    );
  }

  async recall(query: string, options: RecallOptions = {}): Promise<MemoryEntry[]> {
    return this.#use(
      async (opened) => {
        if (typeof query !== "string")
          throw new InvalidInputError(`query must be a string, got ${typeof query}.`);
        const limit = validateLimit(options.limit, 5);
        const filter = normalizeFilter(options);
        const mode = options.mode ?? this.#options.searchMode;
        if (!["hybrid", "bm25", "embedding"].includes(mode)) {
          throw new InvalidInputError(
            `mode must be hybrid, bm25 or embedding, got ${JSON.stringify(mode)}.`,
          );
        }
        if (
          options.minScore !== undefined &&
          (typeof options.minScore !== "number" || Number.isNaN(options.minScore))
        ) {
          throw new InvalidInputError(`minScore must be a number, got ${options.minScore}.`);
        }
        if (limit === 0) return [];
        this.#syncCache(opened);
        const cacheKey = RecallCache.key(query, { ...options, limit, mode });
        const cached = this.#cache.get(cacheKey);
        if (cached) return structuredClone(cached);
        const results = await runRecall(
          { query, limit, mode, filter, minScore: options.minScore, signal: options.signal },
          {
            statements: opened.statements,
            options: this.#options,
            embedder: opened.embedder,
            vectors: () => opened.vectors,
          },
        );
        if (options.withEmbeddings) this.#attachEmbeddings(opened, results);
        this.#cache.set(cacheKey, filter.namespace ?? "", structuredClone(results));
        return results;
      },
      (none) => none.recall(),
    );
  }

  #attachEmbeddings(opened: Opened, entries: MemoryEntry[]): void {
    const statement = opened.statements.get(
      `SELECT v.embedding FROM memories m JOIN memory_vectors v ON v.doc_id = m.doc_id AND v.content_hash = m.content_hash WHERE m.id = ?`,
    );
    for (const entry of entries) {
      const row = statement.get(entry.id) as EntryRow | undefined;
      if (row?.embedding)
        entry.embedding = toEntry({ ...(row as EntryRow), embedding: row.embedding }).embedding!;
    }
  }

  async list(options: ListOptions = {}): Promise<MemoryEntry[]> {
    return this.#use(
      (opened) => {
        const limit = validateLimit(options.limit, 100, Number.MAX_SAFE_INTEGER);
        const offset = options.offset ?? 0;
        if (!Number.isInteger(offset) || offset < 0)
          throw new InvalidInputError(`offset must be an integer >= 0, got ${offset}.`);
        const { where, params } = filterSql(normalizeFilter(options));
        if (limit === 0) return [];
        const rows = opened.statements
          .get(
            `SELECT ${ENTRY_COLUMNS}, ${options.withEmbeddings ? "v.embedding" : "NULL AS embedding"} FROM memories m ${WITH_VECTOR}
             WHERE ${where} ORDER BY m.updated_at DESC, m.doc_id DESC LIMIT ? OFFSET ?`,
          )
          .all(...params, limit, offset) as EntryRow[];
        return rows.map(toEntry);
      },
      (none) => none.list(),
    );
  }

  async count(options: CountOptions = {}): Promise<number> {
    return this.#use(
      (opened) => {
        const { where, params } = filterSql(normalizeFilter(options));
        return (
          opened.statements
            .get(`SELECT count(*) AS n FROM memories m WHERE ${where}`)
            .get(...params) as { n: number }
        ).n;
      },
      (none) => none.count(),
    );
  }

  #delete(opened: Opened, sql: string, params: unknown[], namespace?: string): number {
    const rows = opened.connection.db
      .transaction(
        () =>
          opened.statements.get(`${sql} RETURNING doc_id`).all(...params) as { doc_id: number }[],
      )
      .immediate();
    opened.vectors.removed(rows.map((row) => row.doc_id));
    this.#invalidate(namespace);
    return rows.length;
  }

  async forget(key: string, options: KeyOptions = {}): Promise<boolean> {
    return this.#use(
      (opened) => {
        const namespace = validateNamespace(options.namespace);
        return (
          this.#delete(
            opened,
            "DELETE FROM memories WHERE namespace = ? AND key = ?",
            [namespace, validateKey(key)],
            namespace,
          ) > 0
        );
      },
      (none) => none.forget(),
    );
  }

  async purgeNamespace(namespace: string): Promise<number> {
    return this.#use(
      (opened) => {
        const valid = validateNamespace(namespace);
        return this.#delete(opened, "DELETE FROM memories WHERE namespace = ?", [valid], valid);
      },
      (none) => none.purgeNamespace(),
    );
  }

  async purgeSession(sessionId: string, options: KeyOptions = {}): Promise<number> {
    return this.#use(
      (opened) => {
        const session = validateSessionId(sessionId);
        if (options.namespace === undefined)
          return this.#delete(opened, "DELETE FROM memories WHERE session_id = ?", [session]);
        const namespace = validateNamespace(options.namespace);
        return this.#delete(
          opened,
          "DELETE FROM memories WHERE session_id = ? AND namespace = ?",
          [session, namespace],
          namespace,
        );
      },
      (none) => none.purgeSession(),
    );
  }

  async *export(filter: ExportFilter = {}): AsyncIterable<MemoryEntry> {
    if (this.#closed) throw new MemoryClosedError("sqlite");
    const normalized = normalizeFilter(filter, {
      allNamespacesByDefault: true,
      includeSupersededByDefault: true,
    });
    const { where, params } = filterSql(normalized);
    const sql = `SELECT ${ENTRY_COLUMNS}, ${filter.withEmbeddings ? "v.embedding" : "NULL AS embedding"} FROM memories m ${WITH_VECTOR}
      WHERE ${where} AND (m.created_at, m.doc_id) > (?, ?) ORDER BY m.created_at, m.doc_id LIMIT ?`;
    let after: [string, number] = ["", -1];
    for (;;) {
      const rows = await this.#use(
        (opened) =>
          opened.statements.get(sql).all(...params, after[0], after[1], EXPORT_PAGE) as EntryRow[],
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
      async (opened) => {
        const report: ImportReport = { imported: 0, rejected: [] };
        let batch: { index: number; entry: NormalizedImportEntry }[] = [];
        let index = 0;
        const namespaces = new Set<string>();
        const commit = async () => {
          const toEmbed = await withBusyRetry(() => this.#importBatch(opened, batch, report));
          for (const { entry } of batch) namespaces.add(entry.namespace);
          batch = [];
          options.onProgress?.({ done: index });
          if (toEmbed.length === 0) return;
          if (this.#options.deferEmbedding) for (const job of toEmbed) opened.queue.enqueue(job);
          else await this.#embedInBatches(toEmbed);
        };
        for await (const raw of entries) {
          if (this.#closed) throw new MemoryClosedError("sqlite");
          options.signal?.throwIfAborted();
          try {
            batch.push({ index, entry: normalizeImportEntry(raw) });
          } catch (error) {
            report.rejected.push(this.#rejection(index, raw, error));
          }
          index++;
          if (batch.length >= IMPORT_BATCH) await commit();
        }
        if (batch.length > 0) await commit();
        for (const namespace of namespaces) this.#invalidate(namespace);
        return report;
      },
      (none) => none.importEntries(entries),
      false,
    );
  }

  #rejection(index: number, raw: unknown, error: unknown) {
    const key =
      typeof (raw as ImportEntry | undefined)?.key === "string"
        ? (raw as ImportEntry).key
        : undefined;
    const code = MemoryError.isInstance(error)
      ? error.code
      : /UNIQUE/.test(String(error))
        ? "CONFLICT"
        : "INVALID_INPUT";
    const message = error instanceof Error ? error.message : String(error);
    return key === undefined ? { index, code, message } : { index, key, code, message };
  }

  #importBatch(
    opened: Opened,
    batch: { index: number; entry: NormalizedImportEntry }[],
    report: ImportReport,
  ): EmbeddingJob[] {
    const jobs: EmbeddingJob[] = [];
    const now = nowIso();
    opened.connection.db
      .transaction(() => {
        for (const { index, entry } of batch) {
          try {
            const vector = this.#givenVector(opened, entry.embedding);
            const updatedAt = entry.updatedAt ?? now;
            const row = upsertEntry(opened.statements, entry, {
              id: entry.id,
              createdAt: entry.createdAt ?? updatedAt,
              updatedAt,
              supersededBy: entry.supersededBy,
            });
            if (vector) opened.vectors.write(row.doc_id, row.namespace, row.content_hash, vector);
            else if (opened.embedder.usable) {
              jobs.push({
                docId: row.doc_id,
                namespace: row.namespace,
                hash: row.content_hash,
                content: row.content,
              });
            }
            report.imported++;
          } catch (error) {
            report.rejected.push(this.#rejection(index, entry, error));
          }
        }
      })
      .immediate();
    return jobs;
  }

  async #embedInBatches(jobs: EmbeddingJob[]): Promise<{ embedded: number; failed: number }> {
    let embedded = 0;
    let failed = 0;
    const size = this.#options.embeddingBatchSize;
    for (let start = 0; start < jobs.length; start += size) {
      const slice = jobs.slice(start, start + size);
      try {
        await this.#embedJobs(slice);
        embedded += slice.length;
      } catch (error) {
        this.#opened!.queue.lastError = error;
        failed += slice.length;
      }
    }
    return { embedded, failed };
  }

  async topCore(limit: number, options: KeyOptions = {}): Promise<MemoryEntry[]> {
    return this.#use(
      (opened) => {
        const count = validateLimit(limit, 10);
        const namespace = validateNamespace(options.namespace);
        const rows = opened.statements
          .get(
            `SELECT ${ENTRY_COLUMNS} FROM memories m WHERE m.namespace = ? AND m.category = 'core' AND m.superseded_by IS NULL
             ORDER BY m.importance IS NULL, m.importance DESC, m.updated_at DESC, m.doc_id DESC LIMIT ?`,
          )
          .all(namespace, count) as EntryRow[];
        return rows.map(toEntry);
      },
      (none) => none.topCore(),
    );
  }

  async markSuperseded(oldKey: string, newKey: string, options: KeyOptions = {}): Promise<boolean> {
    return this.#use(
      (opened) => {
        const namespace = validateNamespace(options.namespace);
        const result = opened.statements
          .get("UPDATE memories SET superseded_by = ? WHERE namespace = ? AND key = ?")
          .run(validateKey(newKey), namespace, validateKey(oldKey));
        this.#invalidate(namespace);
        return result.changes > 0;
      },
      (none) => none.markSuperseded(),
    );
  }

  #pendingCount(opened: Opened): number {
    if (!opened.embedder.provider) return 0;
    return (
      opened.statements
        .get(
          `SELECT count(*) AS n FROM memories m WHERE NOT EXISTS
           (SELECT 1 FROM memory_vectors v WHERE v.doc_id = m.doc_id AND v.content_hash = m.content_hash)`,
        )
        .get() as { n: number }
    ).n;
  }

  async healthCheck(): Promise<HealthReport> {
    return this.#use(
      (opened) => {
        const { embedder, connection } = opened;
        const vector: HealthReport["vector"] = { status: embedder.status };
        if (embedder.provider) vector.providerFingerprint = embedder.provider.fingerprint;
        if (embedder.storedFingerprint !== undefined)
          vector.storedFingerprint = embedder.storedFingerprint;
        if (embedder.reason !== undefined) vector.reason = embedder.reason;
        const pageCount = connection.db.pragma("page_count", { simple: true }) as number;
        const pageSize = connection.db.pragma("page_size", { simple: true }) as number;
        const lastError = opened.queue.lastError;
        return {
          ok: true,
          backend: "sqlite",
          entries: (
            opened.statements.get("SELECT count(*) AS n FROM memories").get() as { n: number }
          ).n,
          pendingEmbeddings: this.#pendingCount(opened),
          vector,
          details: {
            file: connection.file,
            sizeBytes: pageCount * pageSize,
            schemaVersion: SCHEMA_VERSION,
            sqliteVectorExtension: connection.vecVersion ?? "not loaded",
            vectorIndexLoaded: opened.vectors.loaded,
            queuedEmbeddings: opened.queue.pending,
            ...(lastError === undefined
              ? {}
              : {
                  lastEmbeddingError:
                    lastError instanceof Error ? lastError.message : String(lastError),
                }),
          },
        };
      },
      (none) => none.healthCheck(),
    );
  }

  async #embedMissing(
    opened: Opened,
    options: ReindexOptions,
    all: boolean,
  ): Promise<EmbeddingJobReport> {
    const total = all
      ? (opened.statements.get("SELECT count(*) AS n FROM memories").get() as { n: number }).n
      : this.#pendingCount(opened);
    const batchSize = options.batchSize ?? this.#options.embeddingBatchSize;
    const select = opened.statements.get(
      `SELECT m.doc_id, m.namespace, m.content_hash, m.content FROM memories m WHERE m.doc_id > ? AND NOT EXISTS
       (SELECT 1 FROM memory_vectors v WHERE v.doc_id = m.doc_id AND v.content_hash = m.content_hash) ORDER BY m.doc_id LIMIT ?`,
    );
    let after = 0;
    let embedded = 0;
    let failed = 0;
    options.onProgress?.({ done: 0, total });
    for (;;) {
      options.signal?.throwIfAborted();
      if (this.#closed) throw new MemoryClosedError("sqlite");
      const rows = select.all(after, batchSize) as {
        doc_id: number;
        namespace: string;
        content_hash: string;
        content: string;
      }[];
      if (rows.length === 0) break;
      after = rows.at(-1)!.doc_id;
      const result = await this.#embedInBatches(
        rows.map((row) => ({
          docId: row.doc_id,
          namespace: row.namespace,
          hash: row.content_hash,
          content: row.content,
        })),
      );
      embedded += result.embedded;
      failed += result.failed;
      options.onProgress?.({ done: embedded + failed, total });
    }
    return { embedded, failed, remaining: this.#pendingCount(opened) };
  }

  async reindex(options: ReindexOptions = {}): Promise<EmbeddingJobReport> {
    return this.#use(
      async (opened) => {
        const { embedder } = opened;
        if (!embedder.provider) return { embedded: 0, failed: 0, remaining: 0 };
        opened.connection.db
          .transaction(() => {
            opened.vectors.clear();
            embedder.adoptProvider();
          })
          .immediate();
        opened.vectors.reset(embedder.provider.dimensions);
        this.#invalidate();
        return this.#embedMissing(opened, options, true);
      },
      (none) => none.reindex(),
    );
  }

  async backfillEmbeddings(options: BackfillOptions = {}): Promise<EmbeddingJobReport> {
    return this.#use(
      async (opened) => {
        const { embedder } = opened;
        if (!embedder.provider) return { embedded: 0, failed: 0, remaining: 0 };
        if (!embedder.usable) {
          throw new ConfigError(
            `Cannot backfill embeddings: ${embedder.reason}. Run reindex() instead.`,
          );
        }
        return this.#embedMissing(opened, options, false);
      },
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
      try {
        await opened.queue.flush(this.#options.closeTimeoutMs);
      } catch (error) {
        this.#options.logger(
          `@memory/sqlite: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
      opened.queue.stop();
    }
    this.#closed = true;
    this.#cache.invalidate();
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
