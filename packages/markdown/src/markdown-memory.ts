import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import {
  type BackfillOptions,
  type Capabilities,
  ConflictError,
  type CountOptions,
  checkConflicts,
  computeImportance,
  type DeleteFilter,
  type DeleteReport,
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
  type Memory,
  MemoryClosedError,
  type MemoryEntry,
  MemoryError,
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
  type RetrievalSettings,
  resolveRetrievalSettings,
  type StoreInput,
  validateEmbedding,
  validateKey,
  validateLimit,
  validateNamespace,
  validateSessionId,
  withConflict,
} from "@memory/api";
import { prepareFileAtomic } from "./files/atomic-write.js";
import { keepPreviousVersion } from "./files/history.js";
import { TreeLock } from "./files/tree-lock.js";
import { encodeNamespace, STATE_DIR } from "./format/layout.js";
import { joinLines } from "./format/markdown-file.js";
import type { MarkdownIndex } from "./index-store/markdown-index.js";
import { LeaseStore } from "./lease-store.js";
import { refuseLinkedDirectory } from "./linked-directory.js";
import { IMPORT_BATCH, MARKDOWN_DEFAULTS, type MarkdownMemoryOptions } from "./markdown-options.js";
import { MarkdownTree, sha256, type TreeRow } from "./markdown-tree.js";
import { type MissingRoot, probeMissingRoot } from "./missing-root.js";
import {
  checkTreePath,
  type ReadSegmentOptions,
  readSegment,
  type Segment,
} from "./read-segment.js";
import { TreeWatcher } from "./tree-watcher.js";
import { materialize, WritePlan } from "./write-plan.js";

/** A recall result of the Markdown backend: the entry, with `source` (its file and lines) set. */
export type MarkdownRecallResult = MemoryEntry;

/** One memory file's whole text, as {@link MarkdownMemory.readFile} returns it. */
export interface MemoryFileText {
  /** Relative to the root, `/` separators. */
  path: string;
  namespace: string;
  /** The text (a BOM, if any, left out; line breaks as in the file). */
  text: string;
  /** The file starts with a BOM (`text` does not hold it). */
  bom: boolean;
  /** SHA-256 (hex) of the file's bytes: the `expectedHash` of {@link MarkdownMemory.replaceFile}. */
  hash: string;
}

export interface ReplaceFileOptions {
  /** The hash read before (`readFile().hash`), or null when the file must still be absent. */
  expectedHash: string | null;
  /** Copy the previous version to `.memory-state/history/` first (never overwritten). */
  keepPrevious?: boolean;
  /** Time in the backup's name (default now). */
  at?: Date;
}

export interface ReplaceFileResult {
  path: string;
  /** SHA-256 of the new content. */
  hash: string;
  /** Where the previous version was kept (relative to the root), when it was. */
  backup?: string;
}

const CORE_NAMESPACE_FILTER = (namespace: string): NormalizedFilter => ({
  namespace,
  sessionId: undefined,
  categories: ["core"],
  since: undefined,
  until: undefined,
  includeSuperseded: false,
});

const byNewest = (a: MemoryEntry, b: MemoryEntry) =>
  a.updatedAt < b.updatedAt ? 1 : a.updatedAt > b.updatedAt ? -1 : a.key < b.key ? -1 : 1;
const byOldest = (a: MemoryEntry, b: MemoryEntry) =>
  a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.id < b.id ? -1 : 1;

const identity = (namespace: string, key: string) => `${namespace}\u0000${key}`;

// Writes made in this process, per tree: with the watcher on, an instance re-reads the tree when
// another instance of this process wrote (exact), or when the watcher saw any change (another
// process, an editor: milliseconds later).
const localWrites = new Map<string, number>();

function copy(entry: MemoryEntry): MemoryEntry {
  return { ...entry };
}

/**
 * Markdown files as the source of truth (README): every operation reads the files (re-reading
 * only what changed), every write is a minimal, atomic, compare-and-swapped rewrite under a
 * cross-process lock. Recall runs on the shared `RecallEngine`: over the parsed rows with the
 * pure-JS stages, or through the derived SQLite index (`index: true`, the default).
 */
export class MarkdownMemory implements Memory {
  readonly name = "markdown";
  readonly capabilities: Capabilities;
  readonly root: string;
  readonly #tree: MarkdownTree;
  readonly #lock: TreeLock;
  readonly #leases: LeaseStore;
  readonly #embedder: EmbeddingProvider | undefined;
  readonly #settings: RetrievalSettings;
  readonly #now: () => number;
  readonly #engine: RecallEngine;
  readonly #options: MarkdownMemoryOptions;
  #index: MarkdownIndex | undefined;
  #opening: Promise<void> | undefined;
  #watcher: TreeWatcher | undefined;
  #closed = false;
  /** The tree generation the index was last brought up to (-1: not yet, in this process). */
  #indexedGeneration = -1;
  /** `localWrites` of this tree when this instance last re-read it. */
  #seenWrites = -1;

  constructor(options: MarkdownMemoryOptions) {
    if (typeof options?.root !== "string" || options.root === "")
      throw new InvalidInputError(
        "root is required: pass the directory of the memory tree (or set [markdown].path / data_dir in memory.toml).",
      );
    this.#options = options;
    this.root = resolve(options.root);
    this.#tree = new MarkdownTree(this.root);
    this.#lock = new TreeLock(join(this.root, STATE_DIR, "lock"), {
      timeoutMs: options.lockTimeoutMs ?? MARKDOWN_DEFAULTS.lockTimeoutMs,
      staleMs: options.lockStaleMs ?? MARKDOWN_DEFAULTS.lockStaleMs,
    });
    this.#now = options.now ?? Date.now;
    this.#leases = new LeaseStore(join(this.root, STATE_DIR), this.#lock, this.#now);
    this.#embedder =
      options.embedder && options.embedder.dimensions > 0 ? options.embedder : undefined;
    this.#settings = resolveRetrievalSettings(options);
    const indexed = options.index ?? MARKDOWN_DEFAULTS.index;
    const tree = this.#tree;
    this.#engine = new RecallEngine({
      settings: this.#settings,
      now: this.#now,
      stages: new InMemoryRecallStages({
        rows: function* (namespace) {
          yield* tree.entries(namespace).values();
          yield* tree.chunks(namespace);
        },
        allRows: function* () {
          yield* tree.allEntries();
          yield* tree.allChunks();
        },
        vectorAvailability: () => ({
          usable: false,
          reason: this.#embedder
            ? "the markdown backend keeps vectors in its index, which is off (index = false): recall is keyword-only"
            : "no embedding provider is configured: recall is keyword-only (set embedding_provider to enable vector recall)",
        }),
        changeToken: () => tree.generation,
        language: this.#settings.textLanguage,
      }),
    });
    this.capabilities = {
      keywordSearch: true,
      vectorSearch: indexed && this.#embedder !== undefined,
      cjkSearch: true,
      persistent: true,
      multiInstance: true,
      deferredEmbedding: false,
    };
  }

  /** Whether this memory keeps the derived SQLite index. */
  get indexed(): boolean {
    return this.#options.index ?? MARKDOWN_DEFAULTS.index;
  }

  /** The tree, read-only, for doctor and tests. */
  get tree(): MarkdownTree {
    return this.#tree;
  }

  /** Opens the index and starts the watcher (idempotent; every operation does it first). */
  async init(): Promise<void> {
    await this.#open();
  }

  #open(): Promise<void> {
    if (this.#closed) throw new MemoryClosedError(this.name);
    this.#opening ??= this.#init();
    return this.#opening;
  }

  async #init(): Promise<void> {
    if (this.indexed) {
      const { openMarkdownIndex } = await import("./index-store/markdown-index.js");
      this.#index = openMarkdownIndex({
        file: join(this.root, STATE_DIR, "index.db"),
        settings: this.#settings,
        ...(this.#embedder ? { embedder: this.#embedder } : {}),
        embeddingCacheMax: this.#options.embeddingCacheMax ?? MARKDOWN_DEFAULTS.embeddingCacheMax,
        now: this.#now,
        logger: this.#options.logger ?? ((message) => console.warn(message)),
      });
    }
    if (this.#options.watch ?? MARKDOWN_DEFAULTS.watch) {
      this.#watcher = new TreeWatcher(this.root, {
        debounceMs: this.#options.watchDebounceMs ?? MARKDOWN_DEFAULTS.watchDebounceMs,
        onChange: async () => {
          if (this.#closed) return;
          const paths = await this.#refresh();
          this.#options.onWatch?.({ type: "synced", paths });
        },
        onError: (error) => this.#options.onWatch?.({ type: "error", error }),
      });
      await this.#watcher.start();
    }
  }

  /**
   * Re-reads changed files and brings the index up to date with them. Without the watcher every
   * Markdown file is checked (a stat each; only changed files are read); with it, only after the
   * watcher saw a change.
   */
  async #refresh(): Promise<string[]> {
    await this.#open();
    const watcher = this.#watcher;
    const writes = localWrites.get(this.root) ?? 0;
    const stale = !watcher || watcher.takeDirty() || writes !== this.#seenWrites;
    this.#seenWrites = writes;
    const changed = stale ? this.#tree.refresh() : [];
    const index = this.#index;
    if (index && this.#indexedGeneration !== this.#tree.generation) {
      await this.#lock.run(async () => {
        changed.push(...this.#tree.refresh());
        await index.sync(this.#tree);
        this.#indexedGeneration = this.#tree.generation;
      });
    }
    if (changed.length > 0) this.#engine.invalidate();
    return changed;
  }

  #check(): void {
    if (this.#closed) throw new MemoryClosedError(this.name);
  }

  /**
   * Runs `plan` against the current files and writes its result, under the tree lock, retrying
   * when a file changed between reading and writing (someone edited it without the lock).
   */
  async #write<T>(plan: (write: WritePlan) => T, embeddings?: Map<string, number[]>): Promise<T> {
    await this.#open();
    this.#check();
    return this.#lock.run(async () => {
      for (let attempt = 0; attempt < 20; attempt++) {
        this.#tree.refresh();
        const write = new WritePlan();
        const result = plan(write);
        const { edits, titles } = materialize(this.#tree, write);
        if (edits.size === 0 || this.#tree.apply(edits, titles, this.#options.beforeCommit)) {
          if (edits.size > 0) {
            // Writes of this process are serialized by the lock: the tree is current as of now.
            this.#seenWrites = (localWrites.get(this.root) ?? 0) + 1;
            localWrites.set(this.root, this.#seenWrites);
          }
          if (this.#index) {
            await this.#index.sync(this.#tree, embeddings);
            this.#indexedGeneration = this.#tree.generation;
          }
          this.#engine.invalidate();
          return result;
        }
      }
      throw new ConflictError(
        "The memory files kept changing while this write was being made (20 attempts); retry, or stop the program rewriting them.",
      );
    });
  }

  // ---------------------------------------------------------------- reads

  async #rows(filter: NormalizedFilter): Promise<MemoryEntry[]> {
    await this.#refresh();
    this.#check();
    const source =
      filter.namespace !== undefined
        ? this.#tree.entries(filter.namespace).values()
        : this.#tree.allEntries();
    const out: MemoryEntry[] = [];
    for (const row of source) if (entryMatchesFilter(row.entry, filter)) out.push(row.entry);
    return out;
  }

  async get(key: string, options: GetOptions = {}): Promise<MemoryEntry | null> {
    this.#check();
    const namespace = validateNamespace(options.namespace);
    const wanted = validateKey(key);
    await this.#refresh();
    const row = this.#tree.entries(namespace).get(wanted);
    if (!row) return null;
    const entry = copy(row.entry);
    if (options.withEmbedding && this.#index) {
      const [withVector] = await this.#index.attachEmbeddings([entry]);
      return withVector ?? entry;
    }
    return entry;
  }

  async recall(query: string, options: RecallOptions = {}): Promise<MarkdownRecallResult[]> {
    this.#check();
    await this.#refresh();
    this.#check();
    const results = this.#index
      ? await this.#index.recall(query, options)
      : await this.#engine.recall(query, options);
    // The files are the truth: an index row the files no longer hold is dropped, and every
    // result carries the file fields as the files hold them, plus where they are.
    const out: MarkdownRecallResult[] = [];
    for (const result of results) {
      const row = this.#locate(result.namespace, result.key);
      if (!row) continue;
      const entry: MarkdownRecallResult = { ...result, ...row.entry, source: { ...row.source } };
      if (result.score !== undefined) entry.score = result.score;
      if (result.explain !== undefined) entry.explain = result.explain;
      if (result.embedding !== undefined) entry.embedding = result.embedding;
      out.push(entry);
    }
    return out;
  }

  #locate(namespace: string, key: string): TreeRow | undefined {
    const row = this.#tree.entries(namespace).get(key);
    if (row) return row;
    return this.#tree.chunks(namespace).find((chunk) => chunk.entry.key === key);
  }

  async list(options: ListOptions = {}): Promise<MemoryEntry[]> {
    this.#check();
    const filter = normalizeFilter(options);
    const limit = validateLimit(options.limit, 100, 1_000_000);
    const offset = validateLimit(options.offset, 0, Number.MAX_SAFE_INTEGER);
    const page = (await this.#rows(filter))
      .sort(byNewest)
      .slice(offset, offset + limit)
      .map(copy);
    return options.withEmbeddings && this.#index ? this.#index.attachEmbeddings(page) : page;
  }

  async count(options: CountOptions = {}): Promise<number> {
    this.#check();
    return (await this.#rows(normalizeFilter(options))).length;
  }

  async *export(filter: ExportFilter = {}): AsyncIterable<MemoryEntry> {
    this.#check();
    const normalized = normalizeFilter(filter, {
      allNamespacesByDefault: true,
      includeSupersededByDefault: true,
    });
    const rows = (await this.#rows(normalized)).sort(byOldest).map(copy);
    for (let at = 0; at < rows.length; at += 500) {
      this.#check();
      const page = rows.slice(at, at + 500);
      const out =
        filter.withEmbeddings && this.#index ? await this.#index.attachEmbeddings(page) : page;
      for (const entry of out) yield entry;
    }
  }

  async topCore(limit: number, options: KeyOptions = {}): Promise<MemoryEntry[]> {
    this.#check();
    const max = validateLimit(limit, 10);
    const namespace = validateNamespace(options.namespace);
    const importance = (entry: MemoryEntry) =>
      entry.importance ?? computeImportance(entry.content, entry.category);
    return (await this.#rows(CORE_NAMESPACE_FILTER(namespace)))
      .sort((a, b) => importance(b) - importance(a) || byNewest(a, b))
      .slice(0, max)
      .map(copy);
  }

  // ---------------------------------------------------------------- writes

  async store(input: StoreInput): Promise<MemoryEntry> {
    this.#check();
    const normalized = normalizeStoreInput(input);
    if (normalized.embedding && this.#embedder)
      validateEmbedding(normalized.embedding, this.#embedder.dimensions);
    const embeddings = normalized.embedding
      ? new Map([[identity(normalized.namespace, normalized.key), normalized.embedding]])
      : undefined;
    const stored = await this.#write((write) => {
      const existing = this.#tree.entries(normalized.namespace).get(normalized.key);
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
      write.puts.set(identity(entry.namespace, entry.key), entry);
      return copy(entry);
    }, embeddings);
    // Conflict detection (conflict_mode) is the shared one of @memory/api, through this recall.
    return withConflict(stored, await checkConflicts(this, stored, this.#settings));
  }

  async forget(key: string, options: KeyOptions = {}): Promise<boolean> {
    this.#check();
    const namespace = validateNamespace(options.namespace);
    const wanted = validateKey(key);
    return this.#write((write) => {
      const row = this.#tree.entries(namespace).get(wanted);
      if (!row) return false;
      write.removes.set(identity(namespace, wanted), row);
      return true;
    });
  }

  async #removeWhere(predicate: (entry: MemoryEntry) => boolean): Promise<number> {
    return this.#write((write) => {
      for (const row of this.#tree.allEntries())
        if (predicate(row.entry))
          write.removes.set(identity(row.entry.namespace, row.entry.key), row);
      return write.removes.size;
    });
  }

  async purgeNamespace(namespace: string): Promise<number> {
    this.#check();
    const name = validateNamespace(namespace);
    return this.#removeWhere((entry) => entry.namespace === name);
  }

  async purgeSession(sessionId: string, options: KeyOptions = {}): Promise<number> {
    this.#check();
    const session = validateSessionId(sessionId);
    const namespace =
      options.namespace === undefined ? undefined : validateNamespace(options.namespace);
    return this.#removeWhere(
      (entry) =>
        entry.sessionId === session && (namespace === undefined || entry.namespace === namespace),
    );
  }

  async markSuperseded(oldKey: string, newKey: string, options: KeyOptions = {}): Promise<boolean> {
    this.#check();
    const namespace = validateNamespace(options.namespace);
    const old = validateKey(oldKey);
    if (old === validateKey(newKey))
      throw new InvalidInputError(
        "an entry cannot supersede itself: pass the key of the newer entry.",
      );
    return this.#write((write) => {
      const row = this.#tree.entries(namespace).get(old);
      if (!row) return false;
      write.puts.set(identity(namespace, old), { ...row.entry, supersededBy: newKey });
      return true;
    });
  }

  async deleteEntries(filter: DeleteFilter): Promise<DeleteReport> {
    this.#check();
    const normalized = normalizeDeleteFilter(filter);
    if (normalized.dryRun) {
      await this.#refresh();
      this.#check();
      return planDeletion(this.#tree.allEntries(), normalized).report;
    }
    return this.#write((write) => {
      const { report, doomed } = planDeletion(this.#tree.allEntries(), normalized);
      for (const row of doomed)
        write.removes.set(identity(row.entry.namespace, row.entry.key), row);
      return report;
    });
  }

  async importEntries(
    entries: Iterable<ImportEntry> | AsyncIterable<ImportEntry>,
    options: ImportOptions = {},
  ): Promise<ImportReport> {
    this.#check();
    await this.#open();
    const report: ImportReport = { imported: 0, rejected: [] };
    let index = 0;
    let batch: { entry: ReturnType<typeof normalizeImportEntry>; position: number }[] = [];
    const flush = async () => {
      if (batch.length === 0) return;
      const pending = batch;
      batch = [];
      const embeddings = new Map<string, number[]>();
      for (const { entry } of pending)
        if (entry.embedding) embeddings.set(identity(entry.namespace, entry.key), entry.embedding);
      await this.#write((write) => {
        // Ids are unique per store: who holds each id, built only when an entry brings one.
        let owners: Map<string, string> | undefined;
        const ownerOf = (id: string) => {
          if (!owners) {
            owners = new Map();
            for (const row of this.#tree.allEntries())
              owners.set(row.entry.id, identity(row.entry.namespace, row.entry.key));
            for (const [owner, entry] of write.puts) owners.set(entry.id, owner);
          }
          return owners.get(id);
        };
        for (const { entry } of pending) {
          const id = identity(entry.namespace, entry.key);
          const existing =
            write.puts.get(id) ?? this.#tree.entries(entry.namespace).get(entry.key)?.entry;
          const now = nowIso();
          // An id that belongs to another (namespace, key) marks a copy (an export imported
          // into another namespace): the copy gets an id of its own.
          const given =
            entry.id !== undefined && (ownerOf(entry.id) ?? id) === id ? entry.id : undefined;
          const stored: MemoryEntry = {
            id: existing?.id ?? given ?? crypto.randomUUID(),
            key: entry.key,
            content: entry.content,
            category: entry.category,
            namespace: entry.namespace,
            createdAt: entry.createdAt ?? existing?.createdAt ?? now,
            updatedAt: entry.updatedAt ?? now,
          };
          if (entry.sessionId !== undefined) stored.sessionId = entry.sessionId;
          if (entry.importance !== undefined) stored.importance = entry.importance;
          if (entry.supersededBy !== undefined) stored.supersededBy = entry.supersededBy;
          write.puts.delete(id);
          write.puts.set(id, stored);
          owners?.set(stored.id, id);
        }
      }, embeddings);
      report.imported += pending.length;
      options.onProgress?.({ done: pending.at(-1)!.position + 1 });
    };
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
        batch.push({ entry, position });
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
      if (batch.length >= IMPORT_BATCH) await flush();
    }
    await flush();
    return report;
  }

  // ---------------------------------------------------------------- leases and job state

  async acquireLease(name: string, holder: string, ttlMs: number): Promise<Lease | null> {
    this.#check();
    await this.#open();
    return this.#leases.acquire(name, holder, ttlMs);
  }

  async releaseLease(lease: Lease): Promise<boolean> {
    this.#check();
    await this.#open();
    return this.#leases.release(lease);
  }

  async getJobState(job: string): Promise<JobState | null> {
    this.#check();
    await this.#open();
    return this.#leases.getJobState(job);
  }

  async setJobState(job: string, state: JobState): Promise<void> {
    this.#check();
    await this.#open();
    await this.#leases.setJobState(job, state);
  }

  // ---------------------------------------------------------------- agent tools

  /**
   * Reads lines of a file of the tree (the `memory_get` tool): `path` relative to the root,
   * `from` the first line (1-based, default 1), `lines` how many (default all, at most 2,000).
   * Confined to the tree: absolute paths, `..`, symbolic links leading outside and files other
   * than `.md` are refused with INVALID_INPUT; a missing file is NOT_FOUND.
   */
  async readSegment(options: ReadSegmentOptions): Promise<Segment> {
    this.#check();
    await this.#open();
    return readSegment(this.root, options);
  }

  /**
   * A memory file's whole text and hash, as the tree holds it now; null when the tree has no
   * such file. `path` must name a memory file (`MEMORY.md`, `memory/*.md`, the same under
   * `namespaces/<dir>/`): anything else is INVALID_INPUT, so this never reads outside the tree.
   */
  async readFile(path: string): Promise<MemoryFileText | null> {
    this.#check();
    const checked = checkTreePath(this.root, path);
    await this.#refresh();
    this.#check();
    const file = this.#tree.files.get(checked.path);
    if (!file) return null;
    return {
      path: file.path,
      namespace: file.namespace,
      text: joinLines(file.parsed.lines),
      bom: file.parsed.bom,
      hash: file.hash,
    };
  }

  /**
   * Replaces a whole memory file (consolidation), as one write of the tree: under the tree lock,
   * atomically, and compare-and-swap against `expectedHash` (the hash `readFile` returned): when
   * the file changed since (or appeared, or vanished), nothing is written and it fails with
   * CONFLICT. With `keepPrevious`, the previous version is first copied to
   * `.memory-state/history/<path without .md>-<time>.md` (a new file every time). The index and
   * the other instances see the change as they see any write.
   */
  async replaceFile(
    path: string,
    text: string,
    options: ReplaceFileOptions,
  ): Promise<ReplaceFileResult> {
    this.#check();
    const checked = checkTreePath(this.root, path);
    await this.#open();
    this.#check();
    refuseLinkedDirectory(this.root, checked.path);
    const target = join(this.root, checked.path);
    const current = (): Buffer | null => {
      try {
        return readFileSync(target);
      } catch {
        return null;
      }
    };
    const changed = (bytes: Buffer | null) =>
      (bytes === null ? null : sha256(bytes)) !== options.expectedHash;
    const conflict = () =>
      new ConflictError(
        `${checked.path} changed since it was read (edited by a person or another program); nothing was written. Run again to work on the new version.`,
        { details: { path: checked.path } },
      );
    return this.#lock.run(async () => {
      this.#tree.refresh();
      if (this.#tree.files.get(checked.path)?.invalidUtf8)
        throw new ConflictError(
          `${checked.path} is not valid UTF-8, so the memory will not rewrite it; fix its encoding (memory doctor lists it).`,
        );
      const previous = current();
      if (changed(previous)) throw conflict();
      const backup =
        options.keepPrevious && previous !== null
          ? keepPreviousVersion(this.root, checked.path, previous, options.at ?? new Date())
          : undefined;
      const write = prepareFileAtomic(target, text);
      try {
        this.#options.beforeCommit?.();
        // The compare-and-swap: the window is this read and the rename.
        if (changed(current())) {
          if (backup !== undefined) rmSync(join(this.root, backup), { force: true });
          throw conflict();
        }
        write.commit();
      } finally {
        write.abort();
      }
      this.#seenWrites = (localWrites.get(this.root) ?? 0) + 1;
      localWrites.set(this.root, this.#seenWrites);
      this.#tree.refresh();
      if (this.#index) {
        await this.#index.sync(this.#tree);
        this.#indexedGeneration = this.#tree.generation;
      }
      this.#engine.invalidate();
      return {
        path: checked.path,
        hash: sha256(text),
        ...(backup === undefined ? {} : { backup }),
      };
    });
  }

  // ---------------------------------------------------------------- maintenance

  async healthCheck(): Promise<HealthReport> {
    this.#check();
    // Opening would create the root (index, lock, watcher): report a missing one instead.
    const missing = probeMissingRoot(this.root);
    if (missing) return this.#missingRootReport(missing);
    await this.#refresh();
    let entries = 0;
    for (const _ of this.#tree.allEntries()) entries++;
    const problems = [...this.#tree.files.values()].reduce(
      (sum, file) => sum + file.problems.length,
      0,
    );
    const details = {
      root: this.root,
      exists: true,
      files: this.#tree.files.size,
      problems,
      index: this.#index ? join(this.root, STATE_DIR, "index.db") : "off",
    };
    const storage = this.#storage();
    if (this.#index) {
      const report = await this.#index.health();
      return {
        ...report,
        ok: storage.writable && report.ok,
        storage,
        backend: this.name,
        entries,
        details: { ...details, indexDetails: report.details },
      };
    }
    return {
      ok: storage.writable,
      storage,
      backend: this.name,
      entries,
      pendingEmbeddings: 0,
      vector: this.#unindexedVector(),
      details,
    };
  }

  /** Vector recall's state when there is no index to ask. */
  #unindexedVector(): HealthReport["vector"] {
    if (!this.#embedder) return { status: "disabled" };
    return this.indexed
      ? { status: "ok", providerFingerprint: this.#embedder.fingerprint }
      : {
          status: "degraded",
          providerFingerprint: this.#embedder.fingerprint,
          reason: "the index is off (index = false): vector recall needs it",
        };
  }

  #missingRootReport(missing: MissingRoot): HealthReport {
    return {
      ok: missing.writable,
      storage: missing,
      backend: this.name,
      entries: 0,
      pendingEmbeddings: 0,
      vector: this.#unindexedVector(),
      details: {
        root: this.root,
        exists: false,
        files: 0,
        problems: 0,
        index: this.indexed ? join(this.root, STATE_DIR, "index.db") : "off",
        note: missing.writable
          ? `the memory tree ${this.root} does not exist yet; the first write creates it`
          : `the memory tree ${this.root} does not exist yet and cannot be created`,
      },
    };
  }

  #storage(): { writable: boolean; reason?: string } {
    try {
      mkdirSync(join(this.root, STATE_DIR), { recursive: true });
      const probe = join(this.root, STATE_DIR, `.probe-${process.pid}`);
      writeFileSync(probe, "");
      rmSync(probe, { force: true });
      return { writable: true };
    } catch (error) {
      return {
        writable: false,
        reason: `cannot write in ${this.root} (${(error as Error).message}); check permissions and free space`,
      };
    }
  }

  /**
   * Rebuilds the index from the files (drops it, re-reads every file) and re-embeds every entry
   * with the current provider. Without the index there is nothing to rebuild.
   */
  async reindex(options: ReindexOptions = {}): Promise<EmbeddingJobReport> {
    this.#check();
    await this.#open();
    const index = this.#index;
    if (!index) return { embedded: 0, failed: 0, remaining: 0 };
    await this.#lock.run(async () => {
      this.#tree.refresh();
      await index.rebuild(this.#tree);
      this.#indexedGeneration = this.#tree.generation;
    });
    this.#engine.invalidate();
    return index.reindex(options);
  }

  async backfillEmbeddings(options: BackfillOptions = {}): Promise<EmbeddingJobReport> {
    this.#check();
    await this.#refresh();
    if (!this.#index) return { embedded: 0, failed: 0, remaining: 0 };
    return this.#index.backfill(options);
  }

  /** Problems found in the files (unreadable entry lines, duplicates), with file and line. */
  async problems(): Promise<{ path: string; line: number; message: string }[]> {
    this.#check();
    await this.#refresh();
    const out: { path: string; line: number; message: string }[] = [];
    for (const file of [...this.#tree.files.values()].sort((a, b) => (a.path < b.path ? -1 : 1)))
      for (const problem of file.problems) out.push({ path: file.path, ...problem });
    const ids = new Map<string, TreeRow>();
    for (const row of this.#tree.allEntries()) {
      const first = ids.get(row.entry.id);
      if (first)
        out.push({
          path: row.source.path,
          line: row.source.startLine,
          message: `id ${row.entry.id} is also the id of key ${JSON.stringify(first.entry.key)} (${first.source.path}:${first.source.startLine}), a line copied by hand: remove this line's metadata comment to give it an id of its own (an export or migrate would reject one of the two)`,
        });
      else ids.set(row.entry.id, row);
    }
    for (const row of this.#tree.allEntries())
      for (const duplicate of row.duplicates)
        out.push({
          path: duplicate.path,
          line: duplicate.startLine,
          message: `duplicate of key ${JSON.stringify(row.entry.key)} (${row.source.path}:${row.source.startLine} is newer and wins); the next write of the key removes this line`,
        });
    return out;
  }

  /** Whether the index holds exactly what the files hold now (doctor: index freshness). */
  async indexStatus(): Promise<{ enabled: boolean; current: boolean; stale: string[] }> {
    this.#check();
    await this.#open();
    this.#tree.refresh();
    if (!this.#index) return { enabled: false, current: true, stale: [] };
    const stale = this.#index.staleFiles(this.#tree);
    return { enabled: true, current: stale.length === 0, stale };
  }

  async flush(): Promise<void> {
    this.#check();
    await this.#open();
    await this.#index?.flush();
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#engine.invalidate();
    const opening = this.#opening;
    if (opening) await opening.catch(() => {});
    await this.#watcher?.close();
    this.#watcher = undefined;
    await this.#index?.close();
    this.#index = undefined;
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }
}

/** The namespace directory name of a namespace (README, "Layout"). */
export { encodeNamespace };

/** Creates a Markdown memory over the tree at `options.root`. Nothing is read or created until first use. */
export function createMarkdownMemory(options: MarkdownMemoryOptions): MarkdownMemory {
  return new MarkdownMemory(options);
}
