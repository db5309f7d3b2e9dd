import { join } from "node:path";
import { ConflictError, type DriverContext, type IndexDriverFactory } from "@memory/api";
import { recoverInterruptedAppend } from "./files/append-write.js";
import { TreeLock } from "./files/tree-lock.js";
import { STATE_DIR } from "./format/layout.js";
import { MarkdownIndex } from "./index-store/markdown-index.js";
import { MARKDOWN_DEFAULTS, type MarkdownDriverOptions } from "./markdown-options.js";
import { MarkdownTree } from "./markdown-tree.js";
import { TreeWatcher } from "./tree-watcher.js";
import { materialize, WritePlan } from "./write-plan.js";

// Writes made in this process, per tree: with the watcher on, an instance re-reads the tree when
// another instance of this process wrote (exact), or when the watcher saw any change (another
// process, an editor: milliseconds later).
const localWrites = new Map<string, number>();

/** Vectors to store with a write, by `(namespace, key)` identity, and their provider. */
export interface WrittenVectors {
  vectors: Map<string, ArrayLike<number>>;
  fingerprint: string | undefined;
}

/**
 * An open memory tree: the parsed files, the cross-process lock, the derived index (when on) and
 * the watcher. It keeps the parsed files and the index as current as the files: every read
 * re-reads what changed first; every write is one locked, compare-and-swapped rewrite.
 */
export class TreeState {
  readonly root: string;
  readonly tree: MarkdownTree;
  readonly lock: TreeLock;
  #index: MarkdownIndex | undefined;
  readonly #options: MarkdownDriverOptions;
  #watcher: TreeWatcher | undefined;
  /** The tree generation the index was last brought up to (-1: not yet, in this process). */
  #indexedGeneration = -1;
  /** `localWrites` of this tree when this state last re-read it. */
  #seenWrites = -1;
  #closed = false;

  constructor(root: string, options: MarkdownDriverOptions) {
    this.root = root;
    this.#options = options;
    this.tree = new MarkdownTree(root);
    this.lock = new TreeLock(join(root, STATE_DIR, "lock"), {
      timeoutMs: options.lockTimeoutMs ?? MARKDOWN_DEFAULTS.lockTimeoutMs,
      staleMs: options.lockStaleMs ?? MARKDOWN_DEFAULTS.lockStaleMs,
    });
  }

  /** The derived index, once {@link start} opened it (undefined before, or without one). */
  get index(): MarkdownIndex | undefined {
    return this.#index;
  }

  /**
   * Opens the index (through the injected factory) and starts the watcher when asked: both
   * create the tree's directories, so this waits for the tree to exist or to be written.
   */
  async start(openIndex: IndexDriverFactory | undefined, context: DriverContext): Promise<void> {
    if (openIndex)
      this.#index = await MarkdownIndex.open(
        join(this.root, STATE_DIR, "index.db"),
        openIndex,
        context,
      );
    try {
      if (this.#options.watch ?? MARKDOWN_DEFAULTS.watch) await this.#watch();
    } catch (error) {
      await this.close();
      throw error;
    }
  }

  async #watch(): Promise<void> {
    const options = this.#options;
    this.#watcher = new TreeWatcher(this.root, {
      debounceMs: options.watchDebounceMs ?? MARKDOWN_DEFAULTS.watchDebounceMs,
      onChange: async () => {
        if (this.#closed) return;
        const paths = await this.refresh();
        options.onWatch?.({ type: "synced", paths });
      },
      onError: (error) => options.onWatch?.({ type: "error", error }),
    });
    await this.#watcher.start();
  }

  /**
   * Re-reads changed files, without the index. Without the watcher every Markdown file is checked
   * (a stat each; only changed files are read); with it, only after the watcher saw a change.
   */
  refreshFiles(): string[] {
    const writes = localWrites.get(this.root) ?? 0;
    const stale = !this.#watcher || this.#watcher.takeDirty() || writes !== this.#seenWrites;
    this.#seenWrites = writes;
    return stale ? this.tree.refresh() : [];
  }

  /**
   * Re-reads changed files (unless `checkFiles` is false: they were just checked) and brings the
   * index up to date with them; the changed paths.
   */
  async refresh(checkFiles = true): Promise<string[]> {
    const changed = checkFiles ? this.refreshFiles() : [];
    const index = this.index;
    if (index && this.#indexedGeneration !== this.tree.generation) {
      await this.lock.run(async () => {
        this.#recover();
        changed.push(...this.tree.refresh());
        await this.#syncIndex();
      });
    }
    return changed;
  }

  async #syncIndex(written?: WrittenVectors): Promise<void> {
    if (!this.#index) return;
    await this.#index.sync(this.tree, written);
    this.#indexedGeneration = this.tree.generation;
  }

  /** Records a write of this process (the lock serializes them: the tree is current as of now). */
  #wrote(): void {
    this.#seenWrites = (localWrites.get(this.root) ?? 0) + 1;
    localWrites.set(this.root, this.#seenWrites);
  }

  /**
   * Runs `plan` against the current files and writes its result as ONE rewrite, under the tree
   * lock, retrying when a file changed between reading and writing (someone edited it without
   * the lock); then `committed` runs, still under the lock (the usage of deleted entries goes),
   * and the index takes the new rows (and `written` vectors).
   */
  write<T>(
    plan: (write: WritePlan) => T,
    written?: (result: T) => WrittenVectors,
    committed?: (result: T) => void,
  ): Promise<T> {
    return this.lock.run(async () => {
      this.#recover();
      for (let attempt = 0; attempt < 20; attempt++) {
        this.tree.refresh();
        const write = new WritePlan();
        const result = plan(write);
        const { edits, titles } = materialize(this.tree, write);
        if (edits.size === 0 || this.tree.apply(edits, titles, this.#options.beforeCommit)) {
          if (edits.size > 0) this.#wrote();
          committed?.(result);
          await this.#syncIndex(written?.(result));
          return result;
        }
      }
      throw new ConflictError(
        "The memory files kept changing while this write was being made (20 attempts); retry, or stop the program rewriting them.",
      );
    });
  }

  /** Runs `body` under the tree lock on fresh files, then brings the index up to them. */
  rewrite<T>(body: () => T | Promise<T>): Promise<T> {
    return this.lock.run(async () => {
      this.#recover();
      this.tree.refresh();
      const result = await body();
      this.#wrote();
      this.tree.refresh();
      await this.#syncIndex();
      return result;
    });
  }

  /** Cuts off a line that a process killed while appending it left in part (append-write.ts). */
  #recover(): void {
    recoverInterruptedAppend(this.root, join(this.root, STATE_DIR));
  }

  /** Forgets the index and indexes the files again (`reindex`). */
  async rebuildIndex(): Promise<void> {
    const index = this.index;
    if (!index) return;
    await this.lock.run(async () => {
      this.tree.refresh();
      await index.rebuild(this.tree);
      this.#indexedGeneration = this.tree.generation;
    });
  }

  async close(): Promise<void> {
    this.#closed = true;
    await this.#watcher?.close();
    this.#watcher = undefined;
    await this.#index?.close();
    this.#index = undefined;
  }
}
