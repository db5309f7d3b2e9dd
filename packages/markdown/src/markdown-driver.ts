import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import {
  type Capabilities,
  type DeleteReport,
  type DeleteWhere,
  type DriverContext,
  type DriverEmbeddingCache,
  type DriverHealth,
  type DriverLeases,
  type DriverVectors,
  type EntryKey,
  entryMatchesFilter,
  InvalidInputError,
  MemoryClosedError,
  type MemoryDriver,
  type MemoryEntry,
  type NormalizedFilter,
  planDeletion,
  type RecallStages,
  type ScanPage,
  type ScanRequest,
  type WriteBatch,
  type WriteResult,
} from "@memory/api";
import { compareFor } from "@memory/core";
import { identity, planBatch } from "./batch-plan.js";
import { STATE_DIR } from "./format/layout.js";
import type { MarkdownDriverOptions } from "./markdown-options.js";
import { fileTruthStages, parsedRowStages } from "./markdown-stages.js";
import type { TreeRow } from "./markdown-tree.js";
import { TreeFiles } from "./tree-files.js";
import { treeLeases } from "./tree-leases.js";
import { TreeState } from "./tree-state.js";

/** No vectors without the index: nothing is ever pending, nothing is stored. */
const NO_VECTORS: DriverVectors = {
  pending: async () => ({ entries: [], next: undefined }),
  countPending: async () => 0,
  save: async () => 0,
  fingerprint: async () => undefined,
  reset: async () => {},
};

/**
 * Markdown files as the source of truth (README): every call re-reads what changed first, every
 * write batch is ONE minimal, atomic, compare-and-swapped rewrite of the tree under its
 * cross-process lock. Recall stages are the in-memory ones over the parsed rows, or, with the
 * derived index, the injected index driver's stages over `index.db`, the files' rows winning.
 */
export class MarkdownDriver implements MemoryDriver {
  readonly name = "markdown";
  readonly unhonouredSettings = [] as const;
  readonly capabilities: Capabilities;
  readonly root: string;
  readonly indexed: boolean;
  readonly files: TreeFiles;
  readonly #options: MarkdownDriverOptions;
  #state: TreeState | undefined;
  #stages: RecallStages | undefined;

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
    };
    this.files = new TreeFiles(() => this.state, options.beforeCommit);
  }

  /** The open tree (parsed files, lock, index). */
  get state(): TreeState {
    if (!this.#state) throw new MemoryClosedError(this.name);
    return this.#state;
  }

  get recallStages(): RecallStages {
    if (!this.#stages) throw new MemoryClosedError(this.name);
    return this.#stages;
  }

  async open(context: DriverContext): Promise<void> {
    const state = await TreeState.open(this.root, this.#options, this.#options.openIndex, context);
    const index = state.index;
    const rows = index
      ? index.driver.recallStages
      : parsedRowStages(state, context.settings.textLanguage, context.embedder !== undefined);
    this.#stages = fileTruthStages(state, () => rows);
    this.#state = state;
  }

  async close(): Promise<void> {
    const state = this.#state;
    this.#state = undefined;
    this.#stages = undefined;
    await state?.close();
  }

  async #rows(filter: NormalizedFilter): Promise<TreeRow[]> {
    const state = this.state;
    await state.refresh();
    const source =
      filter.namespace !== undefined
        ? state.tree.entries(filter.namespace).values()
        : state.tree.allEntries();
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

  async read(
    keys: readonly EntryKey[],
    options: { withEmbeddings?: boolean } = {},
  ): Promise<(MemoryEntry | undefined)[]> {
    const state = this.state;
    await state.refresh();
    const found = keys.map(({ namespace, key }) => {
      const row = state.tree.entries(namespace).get(key);
      return row ? { ...row.entry } : undefined;
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

  write(batch: WriteBatch): Promise<WriteResult> {
    const state = this.state;
    return state
      .write(
        (plan) => planBatch(state.tree, batch, plan),
        (planned) => planned.written,
      )
      .then((planned) => planned.result);
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
    const entries = page.map((row) => ({ ...row.entry }));
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
    const state = this.state;
    const plan = () => {
      const rows = [...state.tree.allEntries()].filter(
        (row) => filter.sessionId === undefined || row.entry.sessionId === filter.sessionId,
      );
      return planDeletion(rows, {
        ...filter,
        categories: filter.categories ? [...filter.categories] : undefined,
      });
    };
    if (filter.dryRun) {
      await state.refresh();
      return plan().report;
    }
    return state.write((write) => {
      const { report, doomed } = plan();
      for (const row of doomed)
        write.removes.set(identity(row.entry.namespace, row.entry.key), row);
      return report;
    });
  }

  get leases(): DriverLeases {
    const state = this.state;
    return treeLeases(join(state.root, STATE_DIR), state.lock);
  }

  /**
   * The index's vectors, read after the index caught up with the files; none without the index.
   * `reset` only drops vectors: rebuilding the index from the files is `rebuildIndex`.
   */
  get vectors(): DriverVectors {
    const state = this.state;
    const index = state.index;
    if (!index) return NO_VECTORS;
    const inner = index.driver.vectors;
    return {
      pending: async (after, limit) => {
        await state.refresh();
        return inner.pending(after, limit);
      },
      countPending: async () => {
        await state.refresh();
        return inner.countPending();
      },
      save: (vectors, fingerprint) => inner.save(vectors, fingerprint),
      fingerprint: () => inner.fingerprint(),
      reset: (fingerprint) => inner.reset(fingerprint),
    };
  }

  get embeddingCache(): DriverEmbeddingCache | undefined {
    return this.#state?.index?.driver.embeddingCache;
  }

  /** Forgets the index and indexes the files again (`reindex`); nothing to do without it. */
  rebuildIndex(): Promise<void> {
    return this.state.rebuildIndex();
  }

  async health(): Promise<DriverHealth> {
    const state = this.state;
    await state.refresh();
    let entries = 0;
    for (const _ of state.tree.allEntries()) entries++;
    let problems = 0;
    for (const file of state.tree.files.values()) problems += file.problems.length;
    const details: Record<string, unknown> = {
      root: this.root,
      files: state.tree.files.size,
      problems,
      index: state.index ? state.index.file : "off",
    };
    const health: DriverHealth = { entries, storage: this.#storage(), details };
    if (state.index) {
      const indexHealth = await state.index.driver.health();
      details.indexDetails = indexHealth.details;
      if (indexHealth.vectorProblem !== undefined) health.vectorProblem = indexHealth.vectorProblem;
    } else {
      health.vectorProblem = "the index is off (index = false): vector recall needs it";
    }
    return health;
  }

  /** A real tiny write in the state directory: can the tree be written now? */
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
}
