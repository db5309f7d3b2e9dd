import {
  type BackfillOptions,
  type Capabilities,
  type CountOptions,
  DEFAULT_NAMESPACE,
  type DeleteFilter,
  type DeleteReport,
  type EmbeddingJobReport,
  type ExportFilter,
  type FlushOptions,
  type GetOptions,
  type HealthReport,
  type ImportEntry,
  type ImportOptions,
  type ImportReport,
  isMatchAllQuery,
  type JobState,
  type KeyOptions,
  type Lease,
  type ListOptions,
  type Memory,
  MemoryClosedError,
  type MemoryEntry,
  MemoryTimeoutError,
  type RecallOptions,
  type ReindexOptions,
  type StoreInput,
} from "@memory/api";
import { createSqliteMemory } from "@memory/sqlite";
import { Cooldown } from "./cooldown.js";
import { mergeResults, passesFilter, scoreExternalLines } from "./external-results.js";
import { fillTemplate, LucidCommandError, runLucid } from "./lucid-cli.js";
import { parseLucidContext } from "./lucid-context-parser.js";
import {
  type LucidMemoryOptions,
  type ResolvedLucidOptions,
  resolveLucidOptions,
} from "./lucid-options.js";
import { SyncQueue } from "./sync-queue.js";
import { tagOfCategory } from "./tag-categories.js";

const DEFAULT_LIMIT = 5;
const DEFAULT_FLUSH_TIMEOUT_MS = 30_000;
const SYNC_CONCURRENCY = 2;

/**
 * The local SQLite store, bridged to the external `lucid` command: writes go to the local store
 * and are copied to the tool in the background; recall asks the tool only when the local store
 * found little, and never fails or waits longer than the recall timeout because of it.
 */
export class LucidMemory implements Memory {
  readonly name = "lucid";
  readonly #local: Memory;
  readonly #ownsLocal: boolean;
  readonly #options: ResolvedLucidOptions;
  readonly #cooldown: Cooldown;
  readonly #sync: SyncQueue;
  #closing: Promise<void> | undefined;
  #skippedLines = 0;
  #externalRecalls = 0;
  #lastDropLog = Number.NEGATIVE_INFINITY;

  constructor(options: LucidMemoryOptions = {}) {
    this.#options = resolveLucidOptions(options);
    this.#ownsLocal = options.local === undefined;
    this.#local = options.local ?? createSqliteMemory(options.sqlite ?? {});
    this.#cooldown = new Cooldown(this.#options.cooldownMs, this.#options.now);
    this.#sync = new SyncQueue({
      attempt: (args, signal) => this.#runSync(args, signal),
      retries: this.#options.syncRetries,
      retryDelayMs: this.#options.syncRetryDelayMs,
      maxPending: this.#options.syncQueueMax,
      concurrency: SYNC_CONCURRENCY,
      retryable: (error) => !(error instanceof LucidCommandError && error.kind === "missing"),
      onDrop: (reason) => this.#dropped(reason),
    });
  }

  /** Those of the local store: the external tool adds context, not capabilities. */
  get capabilities(): Capabilities {
    return this.#local.capabilities;
  }

  #check(): void {
    if (this.#closing) throw new MemoryClosedError("lucid");
  }

  async store(input: StoreInput): Promise<MemoryEntry> {
    this.#check();
    const entry = await this.#local.store(input);
    const values = {
      key: entry.key,
      content: entry.content,
      category: entry.category,
      tag: tagOfCategory(entry.category),
      namespace: entry.namespace,
    };
    this.#sync.enqueue(`${entry.namespace}\u0000${entry.key}`, [
      ...this.#options.args,
      ...fillTemplate(this.#options.storeArgs, values),
    ]);
    return entry;
  }

  async recall(query: string, options: RecallOptions = {}): Promise<MemoryEntry[]> {
    this.#check();
    const local = await this.#local.recall(query, options);
    const limit = options.limit ?? DEFAULT_LIMIT;
    if (
      limit === 0 ||
      local.length >= limit ||
      local.length >= this.#options.localHitThreshold ||
      isMatchAllQuery(query) ||
      options.sessionId !== undefined ||
      this.#cooldown.active
    ) {
      return local;
    }
    const external = await this.#recallExternal(query, options, limit);
    if (external.length === 0) return local;
    return mergeResults(local, external, limit, options.minScore ?? this.#options.minScore);
  }

  async #recallExternal(
    query: string,
    options: RecallOptions,
    limit: number,
  ): Promise<MemoryEntry[]> {
    const namespace = options.namespace ?? DEFAULT_NAMESPACE;
    // No NUL can reach an argument: the local recall, which runs first, refuses such a query.
    const args = [
      ...this.#options.args,
      ...fillTemplate(this.#options.contextArgs, { query, namespace, limit: String(limit) }),
    ];
    this.#externalRecalls++;
    let output: string;
    try {
      output = await runLucid(this.#options.command, args, {
        timeoutMs: this.#options.recallTimeoutMs,
        maxOutputBytes: this.#options.maxOutputBytes,
        env: this.#options.env,
        signal: options.signal,
      });
    } catch (error) {
      if (error instanceof LucidCommandError && error.kind === "canceled") {
        options.signal?.throwIfAborted();
        return [];
      }
      this.#failed(error instanceof Error ? error.message : String(error));
      return [];
    }
    const parsed = parseLucidContext(output);
    if (!parsed.recognized) {
      this.#failed(`\`${this.#options.command}\` answered without a <lucid-context> block.`);
      return [];
    }
    this.#cooldown.clear();
    this.#skippedLines += parsed.skipped;
    const entries = scoreExternalLines(parsed.lines, {
      query,
      mode: options.mode ?? "hybrid",
      namespace,
      nowIso: new Date(this.#options.now()).toISOString(),
      language: this.#options.textLanguage,
    });
    return entries.filter((entry) => passesFilter(entry, options));
  }

  async #runSync(args: readonly string[], signal: AbortSignal): Promise<void> {
    try {
      await runLucid(this.#options.command, args, {
        timeoutMs: this.#options.storeTimeoutMs,
        maxOutputBytes: this.#options.maxOutputBytes,
        env: this.#options.env,
        signal,
      });
    } catch (error) {
      if (!signal.aborted) this.#failed(error instanceof Error ? error.message : String(error));
      throw error;
    }
  }

  #failed(reason: string): void {
    if (this.#cooldown.trip(reason)) {
      this.#options.logger(
        `@memory/lucid: ${reason} Recall uses local results only for the next ${this.#options.cooldownMs / 1000} s; the local store is unaffected.`,
      );
    }
  }

  #dropped(reason: string): void {
    const now = this.#options.now();
    if (now - this.#lastDropLog < this.#options.cooldownMs) return;
    this.#lastDropLog = now;
    this.#options.logger(
      `@memory/lucid: an entry was not copied to \`${this.#options.command}\` (${reason}); it is stored locally. Dropped so far: ${this.#sync.stats.dropped}.`,
    );
  }

  async get(key: string, options?: GetOptions): Promise<MemoryEntry | null> {
    this.#check();
    return this.#local.get(key, options);
  }

  async list(options?: ListOptions): Promise<MemoryEntry[]> {
    this.#check();
    return this.#local.list(options);
  }

  async forget(key: string, options?: KeyOptions): Promise<boolean> {
    this.#check();
    return this.#local.forget(key, options);
  }

  async purgeNamespace(namespace: string): Promise<number> {
    this.#check();
    return this.#local.purgeNamespace(namespace);
  }

  async purgeSession(sessionId: string, options?: KeyOptions): Promise<number> {
    this.#check();
    return this.#local.purgeSession(sessionId, options);
  }

  async count(options?: CountOptions): Promise<number> {
    this.#check();
    return this.#local.count(options);
  }

  async *export(filter?: ExportFilter): AsyncIterable<MemoryEntry> {
    this.#check();
    yield* this.#local.export(filter);
  }

  async importEntries(
    entries: Iterable<ImportEntry> | AsyncIterable<ImportEntry>,
    options?: ImportOptions,
  ): Promise<ImportReport> {
    this.#check();
    return this.#local.importEntries(entries, options);
  }

  async topCore(limit: number, options?: KeyOptions): Promise<MemoryEntry[]> {
    this.#check();
    return this.#local.topCore(limit, options);
  }

  async markSuperseded(oldKey: string, newKey: string, options?: KeyOptions): Promise<boolean> {
    this.#check();
    return this.#local.markSuperseded(oldKey, newKey, options);
  }

  /** Deletes from the local store only, like `forget`: the external tool is never asked to delete. */
  async deleteEntries(filter: DeleteFilter): Promise<DeleteReport> {
    this.#check();
    return this.#local.deleteEntries(filter);
  }

  /** Leases live in the local store, so every process on one local database shares them; expiry follows its clock (`sqlite.now`). */
  async acquireLease(name: string, holder: string, ttlMs: number): Promise<Lease | null> {
    this.#check();
    return this.#local.acquireLease(name, holder, ttlMs);
  }

  async releaseLease(lease: Lease): Promise<boolean> {
    this.#check();
    return this.#local.releaseLease(lease);
  }

  async getJobState(job: string): Promise<JobState | null> {
    this.#check();
    return this.#local.getJobState(job);
  }

  async setJobState(job: string, state: JobState): Promise<void> {
    this.#check();
    return this.#local.setJobState(job, state);
  }

  async healthCheck(): Promise<HealthReport> {
    this.#check();
    const report = await this.#local.healthCheck();
    const lastFailure = this.#cooldown.lastFailure;
    const until = this.#cooldown.until;
    return {
      ...report,
      backend: "lucid",
      details: {
        ...report.details,
        local: report.backend,
        lucid: {
          command: this.#options.command,
          externalRecalls: this.#externalRecalls,
          cooldownUntil: until === undefined ? undefined : new Date(until).toISOString(),
          lastFailure: lastFailure && {
            at: new Date(lastFailure.at).toISOString(),
            reason: lastFailure.reason,
          },
          skippedLines: this.#skippedLines,
          sync: { ...this.#sync.stats },
        },
      },
    };
  }

  async reindex(options?: ReindexOptions): Promise<EmbeddingJobReport> {
    this.#check();
    return this.#local.reindex(options);
  }

  async backfillEmbeddings(options?: BackfillOptions): Promise<EmbeddingJobReport> {
    this.#check();
    return this.#local.backfillEmbeddings(options);
  }

  /** Waits for the local store's deferred work, then for pending syncs to the external tool. */
  async flush(options: FlushOptions = {}): Promise<void> {
    this.#check();
    const timeoutMs = options.timeoutMs ?? DEFAULT_FLUSH_TIMEOUT_MS;
    await this.#local.flush(options);
    if (!(await this.#sync.drain(timeoutMs))) {
      throw new MemoryTimeoutError(
        `${this.#sync.size} sync(s) to \`${this.#options.command}\` still pending after ${timeoutMs} ms; they go on in the background (pass a larger flush timeoutMs to wait longer).`,
      );
    }
  }

  /** Waits up to `closeTimeoutMs` for pending syncs, drops the rest, closes the local store if it created it. */
  close(): Promise<void> {
    this.#closing ??= this.#close();
    return this.#closing;
  }

  async #close(): Promise<void> {
    const drained = await this.#sync.drain(this.#options.closeTimeoutMs);
    const dropped = this.#sync.abort();
    if (!drained && dropped > 0) {
      this.#options.logger(
        `@memory/lucid: closed with ${dropped} sync(s) to \`${this.#options.command}\` unfinished after ${this.#options.closeTimeoutMs} ms; those entries are stored locally only.`,
      );
    }
    if (this.#ownsLocal) await this.#local.close();
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}

/** Creates a {@link LucidMemory}; nothing is opened or run until the first operation. */
export function createLucidMemory(options: LucidMemoryOptions = {}): LucidMemory {
  return new LucidMemory(options);
}
