import {
  type BackfillOptions,
  type Capabilities,
  type ConflictSettings,
  type CountOptions,
  checkConflicts,
  computeImportance,
  type DeleteFilter,
  type DeleteReport,
  defaultConfig,
  type EmbeddingJobReport,
  type EmbeddingProvider,
  type ExportFilter,
  entryMatchesFilter,
  type GetOptions,
  type HealthReport,
  type ImportEntry,
  type ImportOptions,
  type ImportReport,
  InMemoryRecallStages,
  InvalidInputError,
  type JobState,
  type KeyOptions,
  type Lease,
  type ListOptions,
  leaseFromRow,
  type Memory,
  MemoryClosedError,
  type MemoryEntry,
  MemoryError,
  type MemorySettings,
  type NormalizedFilter,
  normalizeDeleteFilter,
  normalizeFilter,
  normalizeImportEntry,
  normalizeStoreInput,
  nowIso,
  planDeletion,
  RecallEngine,
  type RecallOptions,
  type ReindexOptions,
  retrievalSettingsFromConfig,
  type StoreInput,
  serializeJobState,
  validateEmbedding,
  validateKey,
  validateLease,
  validateLeaseName,
  validateLeaseTtl,
  validateLimit,
  validateNamespace,
  validateSessionId,
  withConflict,
} from "@memory/api";
import { InMemoryStore, type StoredRow } from "./in-memory-store.js";

/** Options of the reference backend. */
export interface InMemoryMemoryOptions {
  /** Share a store between instances; default a new one. */
  store?: InMemoryStore;
  embedder?: EmbeddingProvider;
  /** Retrieval settings (`search_mode`, `merge_strategy`, ...); defaults as in `memory.toml`. */
  settings?: Partial<MemorySettings>;
  /** Clock for lease expiry (tests); default `Date.now`. */
  now?: () => number;
}

function copy(row: StoredRow, withEmbedding = false): MemoryEntry {
  const entry = { ...row.entry };
  if (withEmbedding && row.vector) entry.embedding = [...row.vector];
  return entry;
}

const byNewest = (a: StoredRow, b: StoredRow) =>
  a.entry.updatedAt < b.entry.updatedAt
    ? 1
    : a.entry.updatedAt > b.entry.updatedAt
      ? -1
      : a.entry.key < b.entry.key
        ? -1
        : 1;
const byOldest = (a: StoredRow, b: StoredRow) =>
  a.entry.createdAt < b.entry.createdAt
    ? -1
    : a.entry.createdAt > b.entry.createdAt
      ? 1
      : a.entry.id < b.entry.id
        ? -1
        : 1;

/**
 * The reference backend: the whole contract in plain TypeScript over a Map, built on the
 * shared algorithms of `@memory/api`. It proves the conformance suite (it passes every group)
 * and is handy in unit tests of code that uses a `Memory`. Not persistent.
 */
export class InMemoryMemory implements Memory {
  readonly name = "memory";
  readonly capabilities: Capabilities;
  readonly #store: InMemoryStore;
  readonly #embedder: EmbeddingProvider | undefined;
  readonly #engine: RecallEngine;
  readonly #conflicts: ConflictSettings;
  readonly #now: () => number;
  #closed = false;

  constructor(options: InMemoryMemoryOptions = {}) {
    this.#store = options.store ?? new InMemoryStore();
    this.#now = options.now ?? Date.now;
    this.#embedder =
      options.embedder && options.embedder.dimensions > 0 ? options.embedder : undefined;
    const store = this.#store;
    const rows = () => store.rows.values();
    const settings = retrievalSettingsFromConfig({
      ...defaultConfig().memory,
      ...options.settings,
    });
    this.#conflicts = settings;
    this.#engine = new RecallEngine({
      settings,
      embedder: this.#embedder,
      stages: new InMemoryRecallStages({
        language: settings.textLanguage,
        rows: function* (namespace) {
          for (const row of rows()) if (row.entry.namespace === namespace) yield row;
        },
        allRows: rows,
        ...(this.#embedder ? { embedder: this.#embedder } : {}),
        vectorAvailability: () => {
          const reason = this.#vectorUnavailable();
          return reason === undefined ? { usable: true } : { usable: false, reason };
        },
        changeToken: () => store.version,
      }),
    });
    this.capabilities = {
      keywordSearch: true,
      vectorSearch: this.#embedder !== undefined,
      cjkSearch: true,
      persistent: false,
      multiInstance: true,
      deferredEmbedding: false,
    };
  }

  #open(): void {
    if (this.#closed) throw new MemoryClosedError(this.name);
  }

  /** Why vector recall cannot run now, or undefined when it can. */
  #vectorUnavailable(): string | undefined {
    if (!this.#embedder) return "no embedding provider is configured (keyword-only recall)";
    const stored = this.#store.fingerprint;
    if (stored !== undefined && stored !== this.#embedder.fingerprint) {
      return `stored vectors were made by ${stored} but the provider is ${this.#embedder.fingerprint}; run reindex`;
    }
    return undefined;
  }

  async #embed(texts: string[], purpose: "query" | "document"): Promise<(number[] | undefined)[]> {
    if (!this.#embedder || this.#vectorUnavailable()) return texts.map(() => undefined);
    try {
      const vectors = await this.#embedder.embed(texts, { purpose });
      return vectors.map((vector) => validateEmbedding(vector, this.#embedder!.dimensions));
    } catch {
      // An embedding failure never loses the write: the entry stays unembedded until backfill.
      return texts.map(() => undefined);
    }
  }

  /** Whether `id` is the id of a stored entry other than the one at `row` (a linear scan: the reference favours plainness). */
  #idBelongsToAnother(id: string, row: string): boolean {
    for (const [other, stored] of this.#store.rows)
      if (stored.entry.id === id && other !== row) return true;
    return false;
  }

  #written(): void {
    this.#store.version++;
  }

  #recordFingerprint(): void {
    if (this.#embedder && this.#store.fingerprint === undefined)
      this.#store.fingerprint = this.#embedder.fingerprint;
  }

  async store(input: StoreInput): Promise<MemoryEntry> {
    this.#open();
    const normalized = normalizeStoreInput(input);
    if (normalized.embedding && this.#embedder)
      validateEmbedding(normalized.embedding, this.#embedder.dimensions);
    const [vector] = normalized.embedding
      ? [normalized.embedding]
      : await this.#embed([normalized.content], "document");
    this.#open();
    // Read-modify-write without an await in between, so concurrent stores of one key stay atomic.
    const id = InMemoryStore.id(normalized.namespace, normalized.key);
    const existing = this.#store.rows.get(id);
    const now = nowIso();
    const entry: MemoryEntry = {
      id: existing?.entry.id ?? crypto.randomUUID(),
      key: normalized.key,
      content: normalized.content,
      category: normalized.category,
      namespace: normalized.namespace,
      createdAt: existing?.entry.createdAt ?? now,
      updatedAt: now,
    };
    if (normalized.sessionId !== undefined) entry.sessionId = normalized.sessionId;
    if (normalized.importance !== undefined) entry.importance = normalized.importance;
    const row: StoredRow = { entry };
    if (vector) {
      row.vector = [...vector];
      this.#recordFingerprint();
    }
    this.#store.rows.set(id, row);
    this.#written();
    return withConflict(copy(row), await checkConflicts(this, entry, this.#conflicts));
  }

  async get(key: string, options: GetOptions = {}): Promise<MemoryEntry | null> {
    this.#open();
    const row = this.#store.rows.get(
      InMemoryStore.id(validateNamespace(options.namespace), validateKey(key)),
    );
    return row ? copy(row, options.withEmbedding) : null;
  }

  #select(filter: NormalizedFilter): StoredRow[] {
    return [...this.#store.rows.values()].filter((row) => entryMatchesFilter(row.entry, filter));
  }

  async recall(query: string, options: RecallOptions = {}): Promise<MemoryEntry[]> {
    this.#open();
    return this.#engine.recall(query, options);
  }

  async list(options: ListOptions = {}): Promise<MemoryEntry[]> {
    this.#open();
    const filter = normalizeFilter(options);
    const limit = validateLimit(options.limit, 100, 1_000_000);
    const offset = validateLimit(options.offset, 0, Number.MAX_SAFE_INTEGER);
    return this.#select(filter)
      .sort(byNewest)
      .slice(offset, offset + limit)
      .map((row) => copy(row, options.withEmbeddings));
  }

  async forget(key: string, options: KeyOptions = {}): Promise<boolean> {
    this.#open();
    const deleted = this.#store.rows.delete(
      InMemoryStore.id(validateNamespace(options.namespace), validateKey(key)),
    );
    if (deleted) this.#written();
    return deleted;
  }

  async purgeNamespace(namespace: string): Promise<number> {
    this.#open();
    const name = validateNamespace(namespace);
    return this.#deleteWhere((entry) => entry.namespace === name);
  }

  async purgeSession(sessionId: string, options: KeyOptions = {}): Promise<number> {
    this.#open();
    const session = validateSessionId(sessionId);
    const namespace =
      options.namespace === undefined ? undefined : validateNamespace(options.namespace);
    return this.#deleteWhere(
      (entry) =>
        entry.sessionId === session && (namespace === undefined || entry.namespace === namespace),
    );
  }

  #deleteWhere(predicate: (entry: MemoryEntry) => boolean): number {
    let removed = 0;
    for (const [id, row] of this.#store.rows) {
      if (predicate(row.entry)) {
        this.#store.rows.delete(id);
        removed++;
      }
    }
    if (removed > 0) this.#written();
    return removed;
  }

  async count(options: CountOptions = {}): Promise<number> {
    this.#open();
    return this.#select(normalizeFilter(options)).length;
  }

  async *export(filter: ExportFilter = {}): AsyncIterable<MemoryEntry> {
    this.#open();
    const normalized = normalizeFilter(filter, {
      allNamespacesByDefault: true,
      includeSupersededByDefault: true,
    });
    // A snapshot of ids, then pages: a concurrent write never breaks the iteration.
    const ids = this.#select(normalized)
      .sort(byOldest)
      .map((row) => InMemoryStore.id(row.entry.namespace, row.entry.key));
    for (const id of ids) {
      this.#open();
      const row = this.#store.rows.get(id);
      if (row) yield copy(row, filter.withEmbeddings);
    }
  }

  async importEntries(
    entries: Iterable<ImportEntry> | AsyncIterable<ImportEntry>,
    options: ImportOptions = {},
  ): Promise<ImportReport> {
    this.#open();
    const report: ImportReport = { imported: 0, rejected: [] };
    let index = 0;
    for await (const raw of entries) {
      const position = index++;
      if (options.signal?.aborted) {
        report.interrupted = true;
        break;
      }
      try {
        const entry = normalizeImportEntry(raw);
        if (entry.embedding && this.#embedder)
          validateEmbedding(entry.embedding, this.#embedder.dimensions);
        const [vector] = entry.embedding
          ? [entry.embedding]
          : await this.#embed([entry.content], "document");
        const id = InMemoryStore.id(entry.namespace, entry.key);
        const existing = this.#store.rows.get(id);
        const now = nowIso();
        // Ids are unique per store: an id that belongs to another (namespace, key) marks a
        // copy (an export imported into another namespace), which gets an id of its own.
        const given =
          entry.id !== undefined && !this.#idBelongsToAnother(entry.id, id) ? entry.id : undefined;
        const stored: MemoryEntry = {
          id: existing?.entry.id ?? given ?? crypto.randomUUID(),
          key: entry.key,
          content: entry.content,
          category: entry.category,
          namespace: entry.namespace,
          createdAt: entry.createdAt ?? existing?.entry.createdAt ?? now,
          updatedAt: entry.updatedAt ?? now,
        };
        if (entry.sessionId !== undefined) stored.sessionId = entry.sessionId;
        if (entry.importance !== undefined) stored.importance = entry.importance;
        if (entry.supersededBy !== undefined) stored.supersededBy = entry.supersededBy;
        const row: StoredRow = {
          entry: stored,
        };
        if (vector) {
          row.vector = [...vector];
          this.#recordFingerprint();
        }
        this.#store.rows.set(id, row);
        report.imported++;
      } catch (error) {
        if (!MemoryError.isInstance(error)) throw error;
        const key = typeof raw?.key === "string" ? raw.key : undefined;
        report.rejected.push({
          index: position,
          ...(key === undefined ? {} : { key }),
          code: error.code,
          message: error.message,
        });
      }
      options.onProgress?.({ done: index });
    }
    this.#written();
    return report;
  }

  async topCore(limit: number, options: KeyOptions = {}): Promise<MemoryEntry[]> {
    this.#open();
    const max = validateLimit(limit, 10);
    const namespace = validateNamespace(options.namespace);
    const importance = (entry: MemoryEntry) =>
      entry.importance ?? computeImportance(entry.content, entry.category);
    return this.#select({
      namespace,
      sessionId: undefined,
      categories: ["core"],
      since: undefined,
      until: undefined,
      includeSuperseded: false,
    })
      .sort((a, b) => importance(b.entry) - importance(a.entry) || byNewest(a, b))
      .slice(0, max)
      .map((row) => copy(row));
  }

  async markSuperseded(oldKey: string, newKey: string, options: KeyOptions = {}): Promise<boolean> {
    this.#open();
    const namespace = validateNamespace(options.namespace);
    const old = validateKey(oldKey);
    // Invalid whatever the store holds: checked before looking the entry up.
    if (old === validateKey(newKey))
      throw new InvalidInputError(
        "an entry cannot supersede itself: pass the key of the newer entry.",
      );
    const row = this.#store.rows.get(InMemoryStore.id(namespace, old));
    if (!row) return false;
    row.entry.supersededBy = newKey;
    this.#written();
    return true;
  }

  async deleteEntries(filter: DeleteFilter): Promise<DeleteReport> {
    this.#open();
    const normalized = normalizeDeleteFilter(filter);
    // The floor ranks every entry of a (namespace, category), whatever the other conditions.
    const { report, doomed } = planDeletion(this.#store.rows.values(), normalized);
    if (!normalized.dryRun && doomed.length > 0) {
      for (const { entry } of doomed)
        this.#store.rows.delete(InMemoryStore.id(entry.namespace, entry.key));
      this.#written();
    }
    return report;
  }

  async acquireLease(name: string, holder: string, ttlMs: number): Promise<Lease | null> {
    this.#open();
    const leaseName = validateLeaseName(name);
    const leaseHolder = validateLeaseName(holder, "lease holder");
    const ttl = validateLeaseTtl(ttlMs);
    const now = this.#now();
    const current = this.#store.leases.get(leaseName);
    const free = !current || current.expiresAtMs <= now;
    if (!free && current.holder !== leaseHolder) return null;
    const next = {
      holder: leaseHolder,
      token: free ? (current?.token ?? 0) + 1 : current.token,
      expiresAtMs: now + ttl,
    };
    this.#store.leases.set(leaseName, next);
    return leaseFromRow({ name: leaseName, ...next });
  }

  async releaseLease(lease: Lease): Promise<boolean> {
    this.#open();
    const { name, holder, token } = validateLease(lease);
    const current = this.#store.leases.get(name);
    if (!current || current.holder !== holder || current.token !== token) return false;
    // Kept, expired, so the next holder's token still goes up.
    current.expiresAtMs = 0;
    return true;
  }

  async getJobState(job: string): Promise<JobState | null> {
    this.#open();
    const text = this.#store.jobStates.get(validateLeaseName(job, "job name"));
    return text === undefined ? null : (JSON.parse(text) as JobState);
  }

  async setJobState(job: string, state: JobState): Promise<void> {
    this.#open();
    this.#store.jobStates.set(validateLeaseName(job, "job name"), serializeJobState(state));
  }

  async healthCheck(): Promise<HealthReport> {
    this.#open();
    const unavailable = this.#vectorUnavailable();
    const pending = this.#embedder
      ? [...this.#store.rows.values()].filter((row) => !row.vector).length
      : 0;
    const vector: HealthReport["vector"] = {
      status: !this.#embedder ? "disabled" : unavailable ? "degraded" : "ok",
    };
    if (this.#embedder) vector.providerFingerprint = this.#embedder.fingerprint;
    if (this.#store.fingerprint) vector.storedFingerprint = this.#store.fingerprint;
    if (unavailable) vector.reason = unavailable;
    return {
      ok: true,
      backend: this.name,
      entries: this.#store.rows.size,
      pendingEmbeddings: pending,
      vector,
      details: {},
    };
  }

  async reindex(options: ReindexOptions = {}): Promise<EmbeddingJobReport> {
    this.#open();
    if (!this.#embedder) return { embedded: 0, failed: 0, remaining: 0 };
    this.#store.fingerprint = this.#embedder.fingerprint;
    const rows = [...this.#store.rows.values()];
    for (const row of rows) delete row.vector;
    return this.#embedRows(rows, options);
  }

  async backfillEmbeddings(options: BackfillOptions = {}): Promise<EmbeddingJobReport> {
    this.#open();
    if (!this.#embedder || this.#vectorUnavailable()) {
      const remaining = this.#embedder
        ? [...this.#store.rows.values()].filter((row) => !row.vector).length
        : 0;
      return { embedded: 0, failed: 0, remaining };
    }
    return this.#embedRows(
      [...this.#store.rows.values()].filter((row) => !row.vector),
      options,
    );
  }

  async #embedRows(rows: StoredRow[], options: ReindexOptions): Promise<EmbeddingJobReport> {
    const batchSize = Math.max(1, options.batchSize ?? 64);
    let embedded = 0;
    let failed = 0;
    for (let at = 0; at < rows.length; at += batchSize) {
      options.signal?.throwIfAborted();
      const batch = rows.slice(at, at + batchSize);
      const vectors = await this.#embed(
        batch.map((row) => row.entry.content),
        "document",
      );
      batch.forEach((row, i) => {
        const vector = vectors[i];
        if (vector) {
          row.vector = [...vector];
          embedded++;
        } else failed++;
      });
      this.#recordFingerprint();
      options.onProgress?.({ done: Math.min(at + batchSize, rows.length), total: rows.length });
    }
    this.#written();
    return {
      embedded,
      failed,
      remaining: [...this.#store.rows.values()].filter((row) => !row.vector).length,
    };
  }

  async flush(): Promise<void> {
    this.#open();
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#engine.invalidate();
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }
}

/** Creates a reference in-memory backend. */
export function createInMemoryMemory(options: InMemoryMemoryOptions = {}): InMemoryMemory {
  return new InMemoryMemory(options);
}
