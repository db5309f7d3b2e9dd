import type {
  Capabilities,
  DeleteFilter,
  DeleteReport,
  EmbeddingJobReport,
  ExplainRecallOptions,
  FeedbackReport,
  HealthReport,
  ImportEntry,
  ImportReport,
  JobState,
  Lease,
  Memory,
  MemoryEntry,
  RecallTrace,
  Relation,
  StoreInput,
  UsageReport,
} from "@memory/api";
import {
  MemoryClosedError,
  NotFoundError,
  normalizeDeleteFilter,
  normalizeStoreInput,
  nowIso,
  serializeJobState,
  UnsupportedOperationError,
  validateKey,
  validateLease,
  validateLeaseName,
  validateLeaseTtl,
  validateNamespace,
} from "@memory/api";
import { recallRequest } from "./recall/recall-request.js";
import {
  DEFAULT_VECTOR_CALIBRATION,
  resolveRetrievalSettings,
} from "./recall/retrieval-settings.js";
import { traceSettings } from "./recall/trace-assembly.js";

/**
 * The degraded `none` backend: remembers nothing and finds nothing. It exists only so an agent
 * keeps running when its real store cannot be opened; `healthCheck()` reports why.
 *
 * Lifecycle jobs: `deleteEntries` deletes nothing (a zero report); `acquireLease` always grants
 * (there is no shared store to coordinate through, so only one process can be assumed) with a
 * fresh token each time; `releaseLease` returns true for a well-formed lease; job state is not
 * kept (`getJobState` returns null), so a job on the none backend runs as if for the first time.
 */
export class NoneMemory implements Memory {
  readonly name = "none";
  readonly capabilities: Capabilities = {
    keywordSearch: false,
    vectorSearch: false,
    cjkSearch: false,
    persistent: false,
    multiInstance: true,
    deferredEmbedding: false,
  };
  readonly #reason: string;
  #closed = false;
  #tokens = 0;

  constructor(reason = "the none backend was configured") {
    this.#reason = reason;
  }

  #open(): void {
    if (this.#closed) throw new MemoryClosedError(this.name);
  }

  async store(input: StoreInput): Promise<MemoryEntry> {
    this.#open();
    const entry = normalizeStoreInput(input);
    const now = nowIso();
    const stored: MemoryEntry = {
      id: crypto.randomUUID(),
      key: entry.key,
      content: entry.content,
      category: entry.category,
      namespace: entry.namespace,
      createdAt: now,
      updatedAt: now,
    };
    return stored;
  }
  async get(): Promise<MemoryEntry | null> {
    this.#open();
    return null;
  }
  async recall(): Promise<MemoryEntry[]> {
    this.#open();
    return [];
  }
  /** An empty trace that says why: there is nothing to find. */
  async explainRecall(query: string, options: ExplainRecallOptions = {}): Promise<RecallTrace> {
    this.#open();
    const settings = resolveRetrievalSettings();
    const request = recallRequest(query, options, settings, Date.now());
    const detail = `the none backend stores nothing (${this.#reason})`;
    return {
      query,
      namespace: request.filter.namespace,
      settings: traceSettings(settings, request, {
        calibration: DEFAULT_VECTOR_CALIBRATION,
        intentWeights: {
          questionPenalty: settings.questionEntryPenalty,
          temporalBoost: settings.temporalBoost,
          speakerBoost: settings.speakerBoost,
        },
        recent: false,
      }),
      intent: { question: false, when: false, terms: [] },
      source: "keyword",
      degraded: detail,
      stages: [{ name: "keyword", count: 0, detail }],
      candidates: [],
      results: [],
      ...(options.key === undefined
        ? {}
        : {
            focus: {
              key: validateKey(options.key),
              exists: false,
              verdict: `${JSON.stringify(options.key)} is not in the results: ${detail}`,
            },
          }),
    };
  }
  async list(): Promise<MemoryEntry[]> {
    this.#open();
    return [];
  }
  async forget(): Promise<boolean> {
    this.#open();
    return false;
  }
  async purgeNamespace(): Promise<number> {
    this.#open();
    return 0;
  }
  async purgeSession(): Promise<number> {
    this.#open();
    return 0;
  }
  async count(): Promise<number> {
    this.#open();
    return 0;
  }
  // biome-ignore lint/correctness/useYield: the none backend has nothing to export.
  async *export(): AsyncIterable<MemoryEntry> {
    this.#open();
  }
  async importEntries(
    entries: Iterable<ImportEntry> | AsyncIterable<ImportEntry>,
  ): Promise<ImportReport> {
    this.#open();
    for await (const _ of entries) {
      // Drained so a streaming producer is not left hanging.
    }
    return { imported: 0, rejected: [] };
  }
  async topCore(): Promise<MemoryEntry[]> {
    this.#open();
    return [];
  }
  async markSuperseded(): Promise<boolean> {
    this.#open();
    return false;
  }
  async unsupersede(key: string, options: { namespace?: string } = {}): Promise<MemoryEntry> {
    this.#open();
    throw new NotFoundError(
      `No entry with key ${JSON.stringify(validateKey(key))} in namespace ${JSON.stringify(validateNamespace(options.namespace))}: the none backend stores nothing (${this.#reason}).`,
    );
  }
  async feedback(): Promise<FeedbackReport> {
    this.#open();
    throw this.#noUsage("feedback");
  }
  async feedbackFromReply(): Promise<FeedbackReport> {
    this.#open();
    throw this.#noUsage("feedbackFromReply");
  }
  async trackRecall(): Promise<string> {
    this.#open();
    throw this.#noUsage("trackRecall");
  }
  async pin(): Promise<MemoryEntry> {
    this.#open();
    throw this.#noUsage("pin");
  }
  async unpin(): Promise<MemoryEntry> {
    this.#open();
    throw this.#noUsage("unpin");
  }
  async snooze(): Promise<MemoryEntry> {
    this.#open();
    throw this.#noUsage("snooze");
  }
  async unsnooze(): Promise<MemoryEntry> {
    this.#open();
    throw this.#noUsage("unsnooze");
  }
  async usage(): Promise<UsageReport> {
    this.#open();
    throw this.#noUsage("usage");
  }
  async pruneUsage(): Promise<number> {
    this.#open();
    return 0;
  }
  #noUsage(operation: string): UnsupportedOperationError {
    return new UnsupportedOperationError(
      `${operation}: the none backend keeps no usage (${this.#reason}).`,
    );
  }
  async relate(): Promise<Relation> {
    this.#open();
    throw this.#noRelations("relate");
  }
  async unrelate(): Promise<number> {
    this.#open();
    throw this.#noRelations("unrelate");
  }
  async relations(): Promise<Relation[]> {
    this.#open();
    throw this.#noRelations("relations");
  }
  #noRelations(operation: string): UnsupportedOperationError {
    return new UnsupportedOperationError(
      `${operation}: the none backend stores no relations (${this.#reason}).`,
    );
  }
  async history(): Promise<MemoryEntry[]> {
    this.#open();
    return [];
  }
  async deleteEntries(filter: DeleteFilter): Promise<DeleteReport> {
    this.#open();
    normalizeDeleteFilter(filter);
    return { deleted: 0, byCategory: {} };
  }
  async acquireLease(name: string, holder: string, ttlMs: number): Promise<Lease | null> {
    this.#open();
    const lease: Lease = {
      name: validateLeaseName(name),
      holder: validateLeaseName(holder, "lease holder"),
      token: ++this.#tokens,
      expiresAt: new Date(Date.now() + validateLeaseTtl(ttlMs)).toISOString(),
    };
    return lease;
  }
  async releaseLease(lease: Lease): Promise<boolean> {
    this.#open();
    validateLease(lease);
    return true;
  }
  async getJobState(job: string): Promise<JobState | null> {
    this.#open();
    validateLeaseName(job, "job name");
    return null;
  }
  async setJobState(job: string, state: JobState): Promise<void> {
    this.#open();
    validateLeaseName(job, "job name");
    serializeJobState(state);
  }
  async healthCheck(): Promise<HealthReport> {
    return {
      ok: false,
      backend: this.name,
      pendingEmbeddings: 0,
      vector: { status: "disabled", reason: this.#reason },
      details: { reason: `nothing is stored: ${this.#reason}` },
    };
  }
  async reindex(): Promise<EmbeddingJobReport> {
    this.#open();
    return { embedded: 0, failed: 0, remaining: 0 };
  }
  async backfillEmbeddings(): Promise<EmbeddingJobReport> {
    this.#open();
    return { embedded: 0, failed: 0, remaining: 0 };
  }
  async flush(): Promise<void> {}
  async close(): Promise<void> {
    this.#closed = true;
  }
  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }
}
