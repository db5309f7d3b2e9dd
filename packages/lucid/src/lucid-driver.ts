import {
  DEFAULT_NAMESPACE,
  isVersionKey,
  type MemoryDriver,
  type MemoryEntry,
  MemoryTimeoutError,
  type RecallOptions,
  type WriteBatch,
  type WriteResult,
} from "@memory/api";
import { isMatchAllQuery } from "@memory/core";
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
const SYNC_CONCURRENCY = 2;

/** The storage members, handed to the wrapped driver unchanged. */
type Delegated = Omit<
  MemoryDriver,
  "name" | "write" | "close" | "health" | "supplementRecall" | "flush"
>;

/**
 * Wraps `driver` with the external `lucid` command: every stored entry (a write batch that is not
 * an import) is copied to the tool in the background after the local write, and a recall that
 * found fewer than `localHitThreshold` entries locally asks the tool for more (through the
 * facade's `supplementRecall` hook). The wrapped driver stays the authority for everything.
 */
export function decorateWithLucid(
  driver: MemoryDriver,
  options: LucidMemoryOptions = {},
): MemoryDriver {
  return new LucidDriver(driver, resolveLucidOptions(options));
}

class LucidDriver implements MemoryDriver {
  readonly name = "lucid";
  readonly #inner: MemoryDriver;
  readonly #options: ResolvedLucidOptions;
  readonly #cooldown: Cooldown;
  readonly #sync: SyncQueue;
  #skippedLines = 0;
  #externalRecalls = 0;
  #lastDropLog = Number.NEGATIVE_INFINITY;

  constructor(inner: MemoryDriver, options: ResolvedLucidOptions) {
    this.#inner = inner;
    this.#options = options;
    this.#cooldown = new Cooldown(options.cooldownMs, options.now);
    this.#sync = new SyncQueue({
      attempt: (args, signal) => this.#runSync(args, signal),
      retries: options.syncRetries,
      retryDelayMs: options.syncRetryDelayMs,
      maxPending: options.syncQueueMax,
      concurrency: SYNC_CONCURRENCY,
      retryable: (error) => !(error instanceof LucidCommandError && error.kind === "missing"),
      onDrop: (reason) => this.#dropped(reason),
    });
  }

  get capabilities(): MemoryDriver["capabilities"] {
    return this.#inner.capabilities;
  }
  get unhonouredSettings(): Delegated["unhonouredSettings"] {
    return this.#inner.unhonouredSettings;
  }
  get recallStages(): Delegated["recallStages"] {
    return this.#inner.recallStages;
  }
  get leases(): Delegated["leases"] {
    return this.#inner.leases;
  }
  get vectors(): Delegated["vectors"] {
    return this.#inner.vectors;
  }
  get embeddingCache(): Delegated["embeddingCache"] {
    return this.#inner.embeddingCache;
  }
  /** The local store's relations: edges stay local (the lucid tool has no notion of them). */
  get relations(): Delegated["relations"] {
    return this.#inner.relations;
  }
  /** The local store's usage: what the agent used is learnt locally, like relations. */
  get usage(): Delegated["usage"] {
    return this.#inner.usage;
  }
  open: Delegated["open"] = (context) => this.#inner.open(context);
  read: Delegated["read"] = (keys, options) => this.#inner.read(keys, options);
  scan: Delegated["scan"] = (request) => this.#inner.scan(request);
  count: Delegated["count"] = (filter) => this.#inner.count(filter);
  deleteWhere: Delegated["deleteWhere"] = (filter) => this.#inner.deleteWhere(filter);

  /** Writes locally, then queues a copy of each stored entry (imports are not copied, as before). */
  async write(batch: WriteBatch): Promise<WriteResult> {
    const result = await this.#inner.write(batch);
    if (batch.refuseInvalidEntries) return result;
    for (const entry of result.upserted) {
      // A kept version (a same-key store's previous content) is history, not a new fact to send.
      if (!entry || isVersionKey(entry.key)) continue;
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
    }
    return result;
  }

  async supplementRecall(
    query: string,
    options: RecallOptions,
    local: MemoryEntry[],
  ): Promise<MemoryEntry[]> {
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

  async health(): ReturnType<MemoryDriver["health"]> {
    const report = await this.#inner.health();
    const lastFailure = this.#cooldown.lastFailure;
    const until = this.#cooldown.until;
    return {
      ...report,
      details: {
        ...report.details,
        local: this.#inner.name,
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

  /** Waits for pending syncs to the external tool (after the facade's deferred embeddings). */
  async flush(timeoutMs: number): Promise<void> {
    if (!(await this.#sync.drain(timeoutMs))) {
      throw new MemoryTimeoutError(
        `${this.#sync.size} sync(s) to \`${this.#options.command}\` still pending after ${timeoutMs} ms; they go on in the background (pass a larger flush timeoutMs to wait longer).`,
      );
    }
  }

  /** Waits up to `closeTimeoutMs` for pending syncs, drops the rest, closes the wrapped driver. */
  async close(): Promise<void> {
    const drained = await this.#sync.drain(this.#options.closeTimeoutMs);
    const dropped = this.#sync.abort();
    if (!drained && dropped > 0) {
      this.#options.logger(
        `@memory/lucid: closed with ${dropped} sync(s) to \`${this.#options.command}\` unfinished after ${this.#options.closeTimeoutMs} ms; those entries are stored locally only.`,
      );
    }
    await this.#inner.close();
  }
}
