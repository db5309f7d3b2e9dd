import {
  type BackfillOptions,
  type Capabilities,
  type CountOptions,
  type DeleteFilter,
  type DeleteReport,
  type EmbeddingJobReport,
  type ExplainRecallOptions,
  type ExportFilter,
  type FeedbackInput,
  type FeedbackReport,
  type FileBackedMemory,
  type FlushOptions,
  type GetOptions,
  type HealthReport,
  type ImportEntry,
  type ImportOptions,
  type ImportReport,
  type JobState,
  type KeyOptions,
  type Lease,
  type ListOptions,
  type Memory,
  MemoryClosedError,
  type MemoryDriver,
  type MemoryEntry,
  type PruneUsageOptions,
  type RecallOptions,
  type RecallResults,
  type RecallTrace,
  type ReindexOptions,
  type RelateOptions,
  type Relation,
  type RelationsOptions,
  type RelationType,
  type SnoozeOptions,
  type StoreInput,
  type TrackRecallInput,
  type UnrelateOptions,
  type UsageOptions,
  type UsageReport,
  validateNamespace,
} from "@memory/api";
import {
  CollectionFilterCache,
  type CollectionRecallParts,
  recallWithCollections,
} from "./collections/collection-recall.js";
import type { JobStateAccess } from "./collections/collection-state.js";
import { COLLECTION_WRITER, type CollectionWriter } from "./collections/collection-writer.js";
import { readCollectionFragments, removeCollectionFragments } from "./collections/fragments.js";
import * as deletions from "./deletions.js";
import { assertCompleteDriver } from "./driver-check.js";
import { backfill, pendingSource, reindex } from "./embedding-jobs.js";
import { EmbeddingWorker } from "./embedding-worker.js";
import * as reads from "./entry-reads.js";
import { explainRecall } from "./explain-recall.js";
import type { FacadeContext, PendingBatchOf } from "./facade-context.js";
import {
  type MemoryFacadeOptions,
  type ResolvedFacadeOptions,
  resolveFacadeOptions,
} from "./facade-options.js";
import { facadeStages } from "./facade-stages.js";
import { healthReport } from "./health.js";
import { importEntries } from "./import-entries.js";
import { keyHistory } from "./key-history.js";
import * as leases from "./lease-operations.js";
import { NoneDriver } from "./none-driver.js";
import type { GraphAccess } from "./recall/graph-expansion.js";
import { RecallEngine } from "./recall/recall-engine.js";
import type { UsageAccess } from "./recall/usage-ranking.js";
import { orderContradictions } from "./relations/contradiction-order.js";
import { entryRelations, relateEntries, unrelateEntries } from "./relations/relation-operations.js";
import { storeEntry } from "./store-entry.js";
import { unsupersedeEntry } from "./unsupersede.js";
import { setPinned, snoozeEntry, unsnoozeEntry } from "./usage/usage-marks.js";
import {
  feedbackFromReply,
  pruneUsageEvents,
  recordFeedback,
  recordSurfaced,
  trackRecall,
  tracks,
} from "./usage/usage-operations.js";
import { UsageRecorder } from "./usage/usage-recorder.js";
import { usageReport } from "./usage/usage-report.js";
import { vectorUnavailable } from "./vector-state.js";

/**
 * The one implementation of `Memory`, over any `MemoryDriver`. It owns every rule that must be the
 * same on every backend (see the concerns it delegates to); the driver only stores and finds.
 * Nothing is opened until the first operation (or `init()`); after `close()` every operation but
 * `close` fails with `MemoryClosedError`.
 */
export class MemoryFacade implements Memory {
  readonly #options: ResolvedFacadeOptions;
  #driver: MemoryDriver;
  #context: FacadeContext | undefined;
  #opening: Promise<FacadeContext> | undefined;
  #closed = false;
  readonly #collectionFilters = new CollectionFilterCache();

  /** @throws InvalidDriverError when `driver` lacks a required member (checked once, here). */
  constructor(driver: MemoryDriver, options: MemoryFacadeOptions = {}) {
    assertCompleteDriver(driver);
    this.#driver = driver;
    this.#options = resolveFacadeOptions(options);
  }

  /** The driver's name, or `none` after a tolerated open failure (`fallbackToNone`). */
  get name(): string {
    return this.#driver.name;
  }

  get capabilities(): Capabilities {
    const declared = this.#driver.capabilities;
    return {
      ...declared,
      // Vectors need a provider at run time as well as a driver that can store them.
      vectorSearch: declared.vectorSearch && this.#options.embedder !== undefined,
      deferredEmbedding: declared.deferredEmbedding && this.#options.embedder !== undefined,
    };
  }

  /** The driver under this facade (for its backend-specific extras). */
  get driver(): MemoryDriver {
    return this.#driver;
  }

  /**
   * The driver's file-backed extension (`capabilities.fileBacked`), each call opened and
   * closed-checked like every other operation; undefined when the driver has none.
   */
  get files(): FileBackedMemory | undefined {
    const files = this.#driver.files;
    if (!this.#driver.capabilities.fileBacked || !files) return undefined;
    return {
      readSegment: (request) => this.#use(() => files.readSegment(request)),
      listFiles: () => this.#use(() => files.listFiles()),
      problems: () => this.#use(() => files.problems()),
      indexStatus: () => this.#use(() => files.indexStatus()),
    };
  }

  /** Opens the driver once; every operation awaits it. */
  async init(): Promise<void> {
    await this.#ready();
  }

  #ready(): Promise<FacadeContext> {
    if (this.#closed) return Promise.reject(new MemoryClosedError(this.name));
    if (this.#context) return Promise.resolve(this.#context);
    this.#opening ??= this.#open().catch((error: unknown) => {
      this.#opening = undefined;
      throw error;
    });
    return this.#opening;
  }

  async #open(): Promise<FacadeContext> {
    const options = this.#options;
    try {
      await this.#driver.open({
        embedder: options.embedder,
        settings: options.settings,
        now: options.now,
        logger: options.logger,
      });
    } catch (error) {
      if (!options.fallbackToNone || this.#closed) throw error;
      const reason = error instanceof Error ? error.message : String(error);
      options.logger(
        `@memory/${this.#driver.name}: FALLING BACK TO THE NONE BACKEND, NOTHING WILL BE REMEMBERED: ${reason}`,
      );
      this.#driver = new NoneDriver(reason);
    }
    if (this.#closed) {
      await this.#driver.close();
      throw new MemoryClosedError(this.name);
    }
    const driver = this.#driver;
    const isClosed = () => this.#closed;
    let context: FacadeContext;
    const unavailable = () => vectorUnavailable(context);
    const engine = new RecallEngine({
      settings: options.settings,
      embedder: options.embedder,
      now: options.now,
      stages: facadeStages(() => driver.recallStages, unavailable),
      graph: graphAccess(driver),
      usage: usageAccess(driver),
    });
    const worker = new EmbeddingWorker<unknown, PendingBatchOf>(
      pendingSource(() => context, isClosed),
      options.embeddingWorker,
    );
    context = {
      driver,
      options,
      engine,
      worker,
      defers: this.#defers(),
      usage:
        driver.capabilities.usage && driver.usage
          ? new UsageRecorder(driver.usage, (message) =>
              options.logger(`@memory/${driver.name}: ${message}`),
            )
          : undefined,
      assertOpen: () => {
        if (this.#closed) throw new MemoryClosedError(this.name);
      },
      written: (namespace) => {
        engine.invalidate(namespace);
        this.#collectionFilters.clear();
      },
    };
    this.#context = context;
    // Entries an earlier process left pending (crash, kill, close timeout) are embedded without
    // `backfill`, once the store has been open for a moment.
    if (context.defers) worker.resume();
    return context;
  }

  #defers(): boolean {
    return this.#options.deferEmbedding && this.capabilities.deferredEmbedding;
  }

  async #use<T>(body: (context: FacadeContext) => Promise<T>): Promise<T> {
    const context = await this.#ready();
    context.assertOpen();
    return body(context);
  }

  store(input: StoreInput): Promise<MemoryEntry> {
    return this.#use((context) => storeEntry(context, input));
  }

  get(key: string, options: GetOptions = {}): Promise<MemoryEntry | null> {
    return this.#use((context) => reads.getEntry(context, key, options));
  }

  recall(query: string, options: RecallOptions = {}): Promise<RecallResults> {
    return this.#use(async (context) => {
      const track = tracks(context, options.track);
      const found = await recallWithCollections(
        (text, engineOptions) => context.engine.recall(text, engineOptions),
        this.#collectionParts(context),
        query,
        options,
      );
      const { driver } = context;
      const ordered = await orderContradictions(driver, found);
      const results: RecallResults = driver.supplementRecall
        ? await driver.supplementRecall(query, options, ordered)
        : ordered;
      if (!track) return results;
      const namespace = validateNamespace(options.namespace);
      const recallId = recordSurfaced(context, namespace, query, results, "recall");
      if (recallId !== undefined) results.recallId = recallId;
      return results;
    });
  }

  feedback(input: FeedbackInput): Promise<FeedbackReport> {
    return this.#use((context) => recordFeedback(context, input));
  }

  feedbackFromReply(
    recallId: string,
    reply: string,
    options: KeyOptions = {},
  ): Promise<FeedbackReport> {
    return this.#use((context) => feedbackFromReply(context, recallId, reply, options));
  }

  trackRecall(input: TrackRecallInput): Promise<string> {
    return this.#use((context) => trackRecall(context, input));
  }

  pin(key: string, options: KeyOptions = {}): Promise<MemoryEntry> {
    return this.#use((context) => setPinned(context, key, options, true));
  }

  unpin(key: string, options: KeyOptions = {}): Promise<MemoryEntry> {
    return this.#use((context) => setPinned(context, key, options, false));
  }

  snooze(key: string, options: SnoozeOptions): Promise<MemoryEntry> {
    return this.#use((context) => snoozeEntry(context, key, options));
  }

  unsnooze(key: string, options: KeyOptions = {}): Promise<MemoryEntry> {
    return this.#use((context) => unsnoozeEntry(context, key, options));
  }

  usage(options: UsageOptions = {}): Promise<UsageReport> {
    return this.#use((context) => usageReport(context, options));
  }

  pruneUsage(options: PruneUsageOptions = {}): Promise<number> {
    return this.#use((context) => pruneUsageEvents(context, options));
  }

  explainRecall(query: string, options: ExplainRecallOptions = {}): Promise<RecallTrace> {
    return this.#use((context) =>
      explainRecall(context, this.#collectionParts(context), query, options),
    );
  }

  /** What a recall with a collections choice needs besides the engine. */
  #collectionParts(context: FacadeContext): CollectionRecallParts {
    const jobs: JobStateAccess = this;
    const stages = context.driver.recallStages;
    return {
      count: (countOptions) => reads.countEntries(context, countOptions),
      jobs,
      cache: this.#collectionFilters,
      ...(stages.changeToken ? { changeToken: () => stages.changeToken?.() } : {}),
    };
  }

  /** The indexer's access to collection fragments (see `collectionWriterOf`). */
  [COLLECTION_WRITER](): CollectionWriter {
    return {
      read: (namespace, keys) =>
        this.#use((context) => readCollectionFragments(context, namespace, keys)),
      remove: (namespace, keys) =>
        this.#use((context) => removeCollectionFragments(context, namespace, keys)),
    };
  }

  list(options: ListOptions = {}): Promise<MemoryEntry[]> {
    return this.#use((context) => reads.listEntries(context, options));
  }

  count(options: CountOptions = {}): Promise<number> {
    return this.#use((context) => reads.countEntries(context, options));
  }

  forget(key: string, options: KeyOptions = {}): Promise<boolean> {
    return this.#use((context) => deletions.forgetEntry(context, key, options));
  }

  purgeNamespace(namespace: string): Promise<number> {
    return this.#use((context) => deletions.purgeNamespace(context, namespace));
  }

  purgeSession(sessionId: string, options: KeyOptions = {}): Promise<number> {
    return this.#use((context) => deletions.purgeSession(context, sessionId, options));
  }

  async *export(filter: ExportFilter = {}): AsyncIterable<MemoryEntry> {
    yield* reads.exportEntries(await this.#ready(), filter);
  }

  importEntries(
    entries: Iterable<ImportEntry> | AsyncIterable<ImportEntry>,
    options: ImportOptions = {},
  ): Promise<ImportReport> {
    return this.#use((context) => importEntries(context, entries, options));
  }

  topCore(limit: number, options: KeyOptions = {}): Promise<MemoryEntry[]> {
    return this.#use((context) => reads.topCoreEntries(context, limit, options));
  }

  markSuperseded(oldKey: string, newKey: string, options: KeyOptions = {}): Promise<boolean> {
    return this.#use((context) => deletions.markSuperseded(context, oldKey, newKey, options));
  }

  unsupersede(key: string, options: KeyOptions = {}): Promise<MemoryEntry> {
    return this.#use((context) => unsupersedeEntry(context, key, options));
  }

  history(key: string, options: KeyOptions = {}): Promise<MemoryEntry[]> {
    return this.#use((context) => keyHistory(context, key, options));
  }

  deleteEntries(filter: DeleteFilter): Promise<DeleteReport> {
    return this.#use((context) => deletions.deleteEntries(context, filter));
  }

  acquireLease(name: string, holder: string, ttlMs: number): Promise<Lease | null> {
    return this.#use((context) => leases.acquireLease(context, name, holder, ttlMs));
  }

  releaseLease(lease: Lease): Promise<boolean> {
    return this.#use((context) => leases.releaseLease(context, lease));
  }

  getJobState(job: string): Promise<JobState | null> {
    return this.#use((context) => leases.getJobState(context, job));
  }

  setJobState(job: string, state: JobState): Promise<void> {
    return this.#use((context) => leases.setJobState(context, job, state));
  }

  relate(
    from: string,
    to: string,
    type: RelationType,
    options: RelateOptions = {},
  ): Promise<Relation> {
    return this.#use((context) => relateEntries(context, from, to, type, options));
  }

  unrelate(
    from: string,
    to: string,
    type?: RelationType,
    options: UnrelateOptions = {},
  ): Promise<number> {
    return this.#use((context) => unrelateEntries(context, from, to, type, options));
  }

  relations(key: string, options: RelationsOptions = {}): Promise<Relation[]> {
    return this.#use((context) => entryRelations(context, key, options));
  }

  healthCheck(): Promise<HealthReport> {
    return this.#use((context) => healthReport(context));
  }

  reindex(options: ReindexOptions = {}): Promise<EmbeddingJobReport> {
    return this.#use((context) => reindex(context, options));
  }

  backfillEmbeddings(options: BackfillOptions = {}): Promise<EmbeddingJobReport> {
    return this.#use((context) => backfill(context, options));
  }

  async flush(options: FlushOptions = {}): Promise<void> {
    if (this.#closed) throw new MemoryClosedError(this.name);
    const timeoutMs = options.timeoutMs ?? 30_000;
    await this.#context?.worker.flush(timeoutMs);
    await this.#context?.usage?.drain();
    await this.#context?.driver.flush?.(timeoutMs);
  }

  /** Drains deferred embeddings (up to `closeTimeoutMs`), then closes the driver. Idempotent. */
  async close(): Promise<void> {
    if (this.#closed) return;
    const context = this.#context;
    if (context) {
      await context.worker.close(this.#options.closeTimeoutMs, (message) =>
        this.#options.logger(`@memory/${this.name}: ${message}`),
      );
    }
    if (this.#closed) return;
    this.#closed = true;
    // An open in flight sees the closed flag and closes the driver itself (then rejects).
    if (this.#opening && !this.#context) await this.#opening.catch(() => {});
    const opened = this.#context;
    if (opened) {
      // Recall events queued before close are written (a failed write is only logged).
      await opened.usage?.drain();
      opened.engine.invalidate();
      await this.#driver.close();
    }
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }
}

/** What graph expansion reads from a driver with relations (undefined without). */
function graphAccess(driver: MemoryDriver): GraphAccess | undefined {
  const relations = driver.relations;
  if (!driver.capabilities.relations || !relations) return undefined;
  return {
    edges: (namespace, keys, limit) =>
      relations.find({ namespace, keys, direction: "both", limit }),
    read: (namespace, keys) => driver.read(keys.map((key) => ({ namespace, key }))),
  };
}

/** What usage-aware ranking reads from a driver with usage (undefined without). */
function usageAccess(driver: MemoryDriver): UsageAccess | undefined {
  const usage = driver.usage;
  if (!driver.capabilities.usage || !usage) return undefined;
  return (namespace, keys) => usage.read(namespace, keys);
}

/** The `Memory` over `driver`: every backend's public factory is this plus its driver. */
export function createMemoryFacade(
  driver: MemoryDriver,
  options: MemoryFacadeOptions = {},
): MemoryFacade {
  return new MemoryFacade(driver, options);
}
