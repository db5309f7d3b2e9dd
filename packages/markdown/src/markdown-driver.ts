import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import {
  type Capabilities,
  type DeleteReport,
  type DeleteWhere,
  type DriverContext,
  type DriverEmbeddingCache,
  type DriverHealth,
  type DriverLeases,
  type DriverRelations,
  type DriverVectors,
  type EntryKey,
  InvalidInputError,
  MemoryClosedError,
  type MemoryDriver,
  type MemoryEntry,
  type NormalizedFilter,
  type RecallStages,
  type ScanPage,
  type ScanRequest,
  type UnhonouredSettings,
  type WriteBatch,
  type WriteResult,
} from "@memory/api";
import { compareFor, entryMatchesFilter, planDeletion } from "@memory/core";
import { dropEdgesTo, identity, planBatch } from "./batch-plan.js";
import { STATE_DIR } from "./format/layout.js";
import { treeHealth } from "./markdown-health.js";
import type { MarkdownDriverOptions } from "./markdown-options.js";
import { fileTruthStages, parsedRowStages } from "./markdown-stages.js";
import type { TreeRow } from "./markdown-tree.js";
import { TreeFiles } from "./tree-files.js";
import { treeLeases } from "./tree-leases.js";
import { findTreeRelations, publicEntry } from "./tree-relations.js";
import { TreeState } from "./tree-state.js";
import { TreeUsage } from "./tree-usage.js";
import { indexVectors, lazyEmbeddingCache } from "./tree-vectors.js";

const KEYWORD_ONLY =
  "no embedding provider is configured: recall is keyword-only (set embedding_provider to enable vector recall)";
const INDEX_OFF =
  "the markdown backend keeps vectors in its index, which is off (index = false): recall is keyword-only";
const NOT_YET = "the memory tree does not exist yet: the first write creates it";

/**
 * The `[memory]` keys this backend does not honour, declared once here and exported by its
 * module: the driver has no deferred embedding (`capabilities.deferredEmbedding` false), so the
 * facade embeds before the write and `store` always returns after the embedding.
 */
export const MARKDOWN_UNHONOURED_SETTINGS: UnhonouredSettings = {
  defer_embedding:
    "the markdown backend embeds each new entry before the write that stores it, so store always waits for the embedding",
};

/**
 * Markdown files as the source of truth (README): every call re-reads what changed first, every
 * write batch is ONE minimal, atomic, compare-and-swapped rewrite of the tree under its
 * cross-process lock. Recall stages are the in-memory ones over the parsed rows, or, with the
 * derived index, the injected index driver's stages over `index.db`, the files' rows winning.
 * Opening creates nothing: a tree that does not exist yet reads as empty (a health check must
 * not change the disk), and the first write (or lease) creates it.
 */
export class MarkdownDriver implements MemoryDriver {
  readonly name = "markdown";
  readonly unhonouredSettings = MARKDOWN_UNHONOURED_SETTINGS;
  readonly capabilities: Capabilities;
  readonly root: string;
  readonly indexed: boolean;
  /** The parsed tree, its lock and (once started) its index and watcher. */
  readonly state: TreeState;
  readonly files: TreeFiles;
  readonly recallStages: RecallStages;
  readonly leases: DriverLeases;
  readonly vectors: DriverVectors;
  readonly embeddingCache: DriverEmbeddingCache | undefined;
  /** Usage events and records, in the state directory (not derivable from the files). */
  readonly usage: TreeUsage;
  readonly #options: MarkdownDriverOptions;
  #context: DriverContext | undefined;
  #starting: Promise<void> | undefined;
  #started = false;
  #rowStages: RecallStages | undefined;

  constructor(options: MarkdownDriverOptions) {
    if (typeof options?.root !== "string" || options.root === "")
      throw new InvalidInputError(
        "root is required: pass the directory of the memory tree (or set [markdown].path / data_dir in memory.toml).",
      );
    this.#options = options;
    this.root = resolve(options.root);
    this.indexed = options.openIndex !== undefined;
    this.capabilities = {
      keywordSearch: true,
      vectorSearch: this.indexed,
      cjkSearch: true,
      persistent: true,
      multiInstance: true,
      deferredEmbedding: false,
      fileBacked: true,
      relations: true,
      usage: true,
    };
    const state = new TreeState(this.root, options);
    this.state = state;
    const ready = (create: boolean) => this.#ready(create);
    this.files = new TreeFiles(state, ready, this.indexed, options.beforeCommit);
    this.recallStages = fileTruthStages(
      state,
      (checkFiles) => this.#fresh(checkFiles),
      () => this.#stages(),
    );
    this.leases = treeLeases(join(this.root, STATE_DIR), state.lock, () => ready(true));
    this.usage = new TreeUsage(
      join(this.root, STATE_DIR),
      state.lock,
      () => ready(true),
      () => {
        state.tree.refresh();
        return (namespace, key) => state.tree.entries(namespace).has(key);
      },
    );
    this.vectors = indexVectors(state, () => this.#fresh());
    this.embeddingCache = this.indexed ? lazyEmbeddingCache(state, ready) : undefined;
  }

  async open(context: DriverContext): Promise<void> {
    this.#context = context;
    this.#rowStages = parsedRowStages(
      this.state,
      context.settings.textLanguage,
      !context.embedder ? KEYWORD_ONLY : this.indexed ? NOT_YET : INDEX_OFF,
    );
    await this.#ready(false);
  }

  /** The index's stages once it is open; the parsed rows' before (and without an index). */
  #stages(): RecallStages {
    const index = this.state.index;
    if (index) return index.driver.recallStages;
    if (!this.#rowStages) throw new MemoryClosedError(this.name);
    return this.#rowStages;
  }

  /**
   * Starts the tree (index, watcher) once it exists, or, with `create`, for a write that is
   * about to create it; the state either way.
   */
  async #ready(create: boolean): Promise<TreeState> {
    if (this.#started) return this.state;
    const context = this.#context;
    if (!context) throw new MemoryClosedError(this.name);
    if (!create && !existsSync(this.root)) return this.state;
    this.#starting ??= this.state.start(this.#options.openIndex, context).then(
      () => {
        this.#started = true;
      },
      (error: unknown) => {
        this.#starting = undefined;
        throw error;
      },
    );
    await this.#starting;
    return this.state;
  }

  /** The tree re-read (unless `checkFiles` is false), the index up to it. */
  async #fresh(checkFiles = true): Promise<TreeState> {
    const state = await this.#ready(false);
    await state.refresh(checkFiles);
    return state;
  }

  async close(): Promise<void> {
    this.#context = undefined;
    await this.#starting?.catch(() => {});
    this.#started = false;
    this.#starting = undefined;
    await this.state.close();
  }

  async #rows(filter: NormalizedFilter): Promise<TreeRow[]> {
    const { tree } = await this.#fresh();
    const source =
      filter.namespace !== undefined ? tree.entries(filter.namespace).values() : tree.allEntries();
    return [...source].filter((row) => entryMatchesFilter(row.entry, filter));
  }

  /** The entries with their vectors from the index attached (none without it). */
  async #withVectors(entries: MemoryEntry[]): Promise<MemoryEntry[]> {
    const index = this.state.index;
    if (!index || entries.length === 0) return entries;
    const indexed = await index.driver.read(entries, { withEmbeddings: true });
    return entries.map((entry, at) => {
      const embedding = indexed[at]?.embedding;
      return embedding ? { ...entry, embedding } : entry;
    });
  }

  /** Edges are read from the files' metadata comments (see tree-relations.ts). */
  readonly relations: DriverRelations = {
    find: async (query) => findTreeRelations((await this.#fresh()).tree, query),
  };

  async read(
    keys: readonly EntryKey[],
    options: { withEmbeddings?: boolean } = {},
  ): Promise<(MemoryEntry | undefined)[]> {
    const { tree } = await this.#fresh();
    const found = keys.map(({ namespace, key }) => {
      const row = tree.entries(namespace).get(key);
      return row ? publicEntry({ ...row.entry }) : undefined;
    });
    if (!options.withEmbeddings) return found;
    const present = found.filter((entry) => entry !== undefined);
    const attached = new Map(
      (await this.#withVectors(present)).map((entry) => [
        identity(entry.namespace, entry.key),
        entry,
      ]),
    );
    return found.map((entry) => entry && attached.get(identity(entry.namespace, entry.key)));
  }

  async write(batch: WriteBatch): Promise<WriteResult> {
    const state = await this.#ready(true);
    const planned = await state.write(
      (plan) => planBatch(state.tree, batch, plan),
      (result) => result.written,
      () => this.usage.removeLocked(batch.deletes),
    );
    return planned.result;
  }

  async scan(request: ScanRequest): Promise<ScanPage> {
    const compare = compareFor(request.order);
    const after = request.after as TreeRow | undefined;
    const sorted = (await this.#rows(request.filter))
      .filter((row) => after === undefined || compare(after, row) < 0)
      .sort(compare);
    const offset = request.offset ?? 0;
    const page = sorted.slice(offset, offset + request.limit);
    const last = page.at(-1);
    const entries = page.map((row) => publicEntry({ ...row.entry }));
    return {
      entries: request.withEmbeddings ? await this.#withVectors(entries) : entries,
      // A copy of the last row: its sort fields as they were, whatever writes come next.
      ...(last && offset + request.limit < sorted.length
        ? { next: { entry: { ...last.entry } } }
        : {}),
    };
  }

  async count(filter: NormalizedFilter): Promise<number> {
    return (await this.#rows(filter)).length;
  }

  async deleteWhere(filter: DeleteWhere): Promise<DeleteReport> {
    const { tree } = this.state;
    const plan = () => {
      // `keepPinned` goes to the plan: a pinned entry is never eligible but still holds its
      // place in the `keepNewest` ranking (the SQL backends' rule).
      const rows = [...tree.allEntries()].filter(
        (row) => filter.sessionId === undefined || row.entry.sessionId === filter.sessionId,
      );
      const categories = filter.categories ? [...filter.categories] : undefined;
      return planDeletion(rows, { ...filter, categories });
    };
    if (filter.dryRun) {
      await this.#fresh();
      return plan().report;
    }
    const state = await this.#ready(true);
    let doomedKeys: MemoryEntry[] = [];
    return state.write(
      (write) => {
        const { report, doomed } = plan();
        doomedKeys = doomed.map((row) => row.entry);
        for (const row of doomed)
          write.removes.set(identity(row.entry.namespace, row.entry.key), row);
        dropEdgesTo(tree, write, doomedKeys);
        return report;
      },
      undefined,
      () => this.usage.removeLocked(doomedKeys),
    );
  }

  /** Forgets the index and indexes the files again (`reindex`); nothing to do without it. */
  async rebuildIndex(): Promise<void> {
    await (await this.#ready(false)).rebuildIndex();
  }

  async health(): Promise<DriverHealth> {
    const state = await this.#ready(false);
    if (this.#started) await state.refresh();
    return treeHealth(state, this.#started, this.indexed);
  }
}
