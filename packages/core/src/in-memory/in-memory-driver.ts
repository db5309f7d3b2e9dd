import {
  type Capabilities,
  type DeleteReport,
  type DeleteWhere,
  type DriverContext,
  type DriverHealth,
  type DriverLeases,
  type DriverRelations,
  type DriverUsage,
  type DriverVectors,
  type EntryKey,
  type EntryMark,
  type Lease,
  leaseFromRow,
  type MemoryDriver,
  type MemoryEntry,
  type NormalizedFilter,
  type PendingEntry,
  type RecallStages,
  type ScanPage,
  type ScanRequest,
  type UnhonouredSettings,
  type WriteBatch,
  type WriteResult,
} from "@memory/api";
import { planDeletion } from "../delete-plan.js";
import { entryMatchesFilter, InMemoryRecallStages } from "../recall/in-memory-stages.js";
import { compareFor } from "./in-memory-order.js";
import { InMemoryRelations } from "./in-memory-relations.js";
import { InMemoryStore, type StoredRow } from "./in-memory-store.js";
import { dropUsage, inMemoryUsage } from "./in-memory-usage.js";

export interface InMemoryDriverOptions {
  /** Share a store between drivers (two "processes" over one database); default a new one. */
  store?: InMemoryStore;
}

function copy(row: StoredRow, withEmbedding = false): MemoryEntry {
  const entry = { ...row.entry };
  // The records are objects: a caller changing what it read must not change what is stored.
  if (entry.conflictRecord) entry.conflictRecord = structuredClone(entry.conflictRecord);
  if (entry.supersessionRecord) entry.supersessionRecord = { ...entry.supersessionRecord };
  if (withEmbedding && row.vector) entry.embedding = [...row.vector];
  return entry;
}

/**
 * The reference driver: every primitive of `MemoryDriver` in plain TypeScript over a Map, with
 * the shared in-memory recall stages. Not persistent; fine up to some thousands of entries.
 * Nothing in it awaits between reading and writing the Map, so each call is atomic.
 */
export class InMemoryDriver implements MemoryDriver {
  readonly name = "memory";
  readonly unhonouredSettings: UnhonouredSettings = {};
  readonly capabilities: Capabilities = {
    keywordSearch: true,
    vectorSearch: true,
    cjkSearch: true,
    persistent: false,
    multiInstance: true,
    deferredEmbedding: false,
    relations: true,
    usage: true,
  };
  readonly store: InMemoryStore;
  readonly #relations: InMemoryRelations;
  readonly relations: DriverRelations;
  readonly usage: DriverUsage;
  #stages: RecallStages | undefined;

  constructor(options: InMemoryDriverOptions = {}) {
    this.store = options.store ?? new InMemoryStore();
    const relations = new InMemoryRelations(this.store);
    this.#relations = relations;
    this.relations = { find: async (query) => relations.find(query) };
    this.usage = inMemoryUsage(this.store);
  }

  async open(context: DriverContext): Promise<void> {
    const store = this.store;
    const rows = () => store.rows.values();
    this.#stages = new InMemoryRecallStages({
      language: context.settings.textLanguage,
      rows: function* (namespace) {
        for (const row of rows()) if (row.entry.namespace === namespace) yield row;
      },
      allRows: rows,
      ...(context.embedder ? { embedder: context.embedder } : {}),
      changeToken: () => store.version,
    });
  }

  async close(): Promise<void> {}

  get recallStages(): RecallStages {
    if (!this.#stages) throw new Error("the in-memory driver is not open");
    return this.#stages;
  }

  async read(
    keys: readonly EntryKey[],
    options: { withEmbeddings?: boolean } = {},
  ): Promise<(MemoryEntry | undefined)[]> {
    return keys.map(({ namespace, key }) => {
      const row = this.store.rows.get(InMemoryStore.id(namespace, key));
      return row ? copy(row, options.withEmbeddings) : undefined;
    });
  }

  async write(batch: WriteBatch): Promise<WriteResult> {
    const { rows } = this.store;
    const result: WriteResult = { upserted: [], superseded: [], deleted: [], refused: [] };
    // Which (namespace, key) holds each id: built only when an upsert gives its own id.
    let owners: Map<string, string> | undefined;
    for (const upsert of batch.upserts) {
      const id = InMemoryStore.id(upsert.entry.namespace, upsert.entry.key);
      const existing = rows.get(id)?.entry;
      let replaceId = upsert.replaceId === true;
      let copy = false;
      if (replaceId) {
        owners ??= new Map([...rows].map(([rowId, row]) => [row.entry.id, rowId]));
        const owner = owners.get(upsert.entry.id);
        // Ids are unique per store: an id of another entry marks a copy, which gets its own.
        copy = owner !== undefined && owner !== id;
        if (copy) replaceId = false;
      }
      const newId = copy ? crypto.randomUUID() : upsert.entry.id;
      const entry: MemoryEntry = {
        ...upsert.entry,
        id: existing && !replaceId ? existing.id : newId,
        createdAt:
          existing && !upsert.replaceCreatedAt ? existing.createdAt : upsert.entry.createdAt,
      };
      // A person's marks outlive a new content unless the record sets them (an import).
      if (existing?.pinned !== undefined && entry.pinned === undefined)
        entry.pinned = existing.pinned;
      if (existing?.snoozedUntil !== undefined && entry.snoozedUntil === undefined)
        entry.snoozedUntil = existing.snoozedUntil;
      if (entry.pinned === false) delete entry.pinned;
      const row: StoredRow = { entry };
      if (upsert.vector) {
        row.vector = Array.from(upsert.vector);
        row.vectorOf = entry.content;
      }
      rows.set(id, row);
      if (owners) {
        if (existing) owners.delete(existing.id);
        owners.set(entry.id, id);
      }
      result.upserted.push({ ...entry });
    }
    if (batch.vectorFingerprint !== undefined && batch.upserts.some((u) => u.vector))
      this.store.fingerprint ??= batch.vectorFingerprint;
    for (const supersession of batch.supersessions) {
      const row = rows.get(InMemoryStore.id(supersession.namespace, supersession.key));
      const { supersededBy, record } = supersession;
      if (row) {
        if (supersededBy === null) delete row.entry.supersededBy;
        else row.entry.supersededBy = supersededBy;
        if (supersededBy !== null && record) row.entry.supersessionRecord = record;
        else delete row.entry.supersessionRecord;
      }
      result.superseded.push(row !== undefined);
    }
    if (batch.marks) result.marked = batch.marks.map((mark) => this.#mark(mark));
    if (batch.relations)
      result.related = batch.relations.map((upsert) => this.#relations.upsert(upsert));
    if (batch.unrelations)
      result.unrelated = batch.unrelations.map((removal) => this.#relations.remove(removal));
    for (const { namespace, key } of batch.deletes) {
      const deleted = rows.delete(InMemoryStore.id(namespace, key));
      if (deleted) {
        this.#relations.cascade(namespace, key);
        dropUsage(this.store, namespace, key);
      }
      result.deleted.push(deleted);
    }
    this.store.version++;
    return result;
  }

  /** Sets or clears the marks of one entry; its content, times and vector stay. */
  #mark(mark: EntryMark): MemoryEntry | undefined {
    const row = this.store.rows.get(InMemoryStore.id(mark.namespace, mark.key));
    if (!row) return undefined;
    if (mark.pinned === true) row.entry.pinned = true;
    else if (mark.pinned === false) delete row.entry.pinned;
    if (mark.snoozedUntil === null) delete row.entry.snoozedUntil;
    else if (mark.snoozedUntil !== undefined) row.entry.snoozedUntil = mark.snoozedUntil;
    return copy(row);
  }

  #matching(filter: NormalizedFilter): StoredRow[] {
    return [...this.store.rows.values()].filter((row) => entryMatchesFilter(row.entry, filter));
  }

  async scan(request: ScanRequest): Promise<ScanPage> {
    const compare = compareFor(request.order);
    const after = request.after as StoredRow | undefined;
    const sorted = this.#matching(request.filter)
      .filter((row) => after === undefined || compare(after, row) < 0)
      .sort(compare);
    const offset = request.offset ?? 0;
    const page = sorted.slice(offset, offset + request.limit);
    const last = page.at(-1);
    return {
      entries: page.map((row) => copy(row, request.withEmbeddings)),
      // A copy of the last row: its sort fields as they were, whatever writes come next.
      ...(last && offset + request.limit < sorted.length
        ? { next: { entry: { ...last.entry } } }
        : {}),
    };
  }

  async count(filter: NormalizedFilter): Promise<number> {
    return this.#matching(filter).length;
  }

  async deleteWhere(filter: DeleteWhere): Promise<DeleteReport> {
    const rows = [...this.store.rows.values()].filter(
      (row) => filter.sessionId === undefined || row.entry.sessionId === filter.sessionId,
    );
    const { report, doomed } = planDeletion(rows, {
      ...filter,
      categories: filter.categories ? [...filter.categories] : undefined,
    });
    if (!filter.dryRun && doomed.length > 0) {
      for (const { entry } of doomed) {
        this.store.rows.delete(InMemoryStore.id(entry.namespace, entry.key));
        this.#relations.cascade(entry.namespace, entry.key);
        dropUsage(this.store, entry.namespace, entry.key);
      }
      this.store.version++;
    }
    return report;
  }

  readonly leases: DriverLeases = {
    acquire: async (name, holder, ttlMs, nowMs): Promise<Lease | null> => {
      const current = this.store.leases.get(name);
      const free = !current || current.expiresAtMs <= nowMs;
      if (!free && current.holder !== holder) return null;
      const next = {
        holder,
        token: free ? (current?.token ?? 0) + 1 : current.token,
        expiresAtMs: nowMs + ttlMs,
      };
      this.store.leases.set(name, next);
      return leaseFromRow({ name, ...next });
    },
    release: async ({ name, holder, token }) => {
      const current = this.store.leases.get(name);
      if (!current || current.holder !== holder || current.token !== token) return false;
      // Kept, expired, so the next holder's token still goes up.
      current.expiresAtMs = 0;
      return true;
    },
    readJobState: async (job) => this.store.jobStates.get(job) ?? null,
    writeJobState: async (job, json) => {
      this.store.jobStates.set(job, json);
    },
  };

  readonly vectors: DriverVectors = {
    pending: async (after, limit) => {
      const ids = [...this.store.rows.keys()].sort();
      const start = typeof after === "string" ? ids.findIndex((id) => id > after) : 0;
      const entries: PendingEntry[] = [];
      let next: string | undefined;
      for (const id of start < 0 ? [] : ids.slice(start)) {
        const row = this.store.rows.get(id)!;
        if (row.vector && row.vectorOf === row.entry.content) continue;
        entries.push({
          id: row.entry.id,
          namespace: row.entry.namespace,
          content: row.entry.content,
          contentHash: id,
        });
        next = id;
        if (entries.length >= limit) break;
      }
      return { entries, next };
    },
    countPending: async () =>
      [...this.store.rows.values()].filter(
        (row) => !row.vector || row.vectorOf !== row.entry.content,
      ).length,
    save: async (vectors, fingerprint) => {
      let written = 0;
      for (const { entry, vector } of vectors) {
        const row = this.store.rows.get(entry.contentHash);
        // The content-hash guard: a vector of content that changed meanwhile is stale.
        if (!row || row.entry.id !== entry.id || row.entry.content !== entry.content) continue;
        row.vector = Array.from(vector);
        row.vectorOf = entry.content;
        written++;
      }
      if (written > 0) {
        this.store.fingerprint ??= fingerprint;
        this.store.version++;
      }
      return written;
    },
    fingerprint: async () => this.store.fingerprint,
    reset: async (fingerprint) => {
      for (const row of this.store.rows.values()) {
        delete row.vector;
        delete row.vectorOf;
      }
      this.store.fingerprint = fingerprint;
      this.store.version++;
    },
  };

  async health(): Promise<DriverHealth> {
    return { entries: this.store.rows.size, details: {} };
  }
}

/** The reference driver over a new (or the given, shared) in-memory store. */
export function createInMemoryDriver(options: InMemoryDriverOptions = {}): InMemoryDriver {
  return new InMemoryDriver(options);
}
