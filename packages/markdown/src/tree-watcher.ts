import { mkdirSync } from "node:fs";
import { basename } from "node:path";
import type { FSWatcher } from "chokidar";

export interface TreeWatcherOptions {
  debounceMs: number;
  /** Called once per burst of changes, after `debounceMs` of quiet; never twice at once. */
  onChange: () => Promise<void>;
  onError: (error: unknown) => void;
}

/**
 * Watches the Markdown files of a tree (chokidar) and calls `onChange` after a quiet period, so
 * that an edit saved in an editor reaches the parsed rows and the index without waiting for the
 * next operation. Hidden files and directories (`.memory-state`, editors' swap files) are ignored.
 */
export class TreeWatcher {
  readonly #root: string;
  readonly #options: TreeWatcherOptions;
  #watcher: FSWatcher | undefined;
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> | undefined;
  #again = false;
  #closed = false;
  #dirty = true;

  constructor(root: string, options: TreeWatcherOptions) {
    this.#root = root;
    this.#options = options;
  }

  async start(): Promise<void> {
    mkdirSync(this.#root, { recursive: true });
    const { watch } = await import("chokidar");
    const watcher = watch(this.#root, {
      ignoreInitial: true,
      ignored: (path, stats) =>
        (path !== this.#root && basename(path).startsWith(".")) ||
        (stats?.isFile() === true && !path.endsWith(".md")),
    });
    this.#watcher = watcher;
    watcher.on("all", () => {
      this.#dirty = true;
      this.#schedule();
    });
    watcher.on("error", (error) => this.#options.onError(error));
    await new Promise<void>((resolve) => watcher.once("ready", () => resolve()));
  }

  /**
   * True (once) when something changed since the last call: operations re-read the tree only
   * then, instead of checking every file each time.
   */
  takeDirty(): boolean {
    const dirty = this.#dirty;
    this.#dirty = false;
    return dirty;
  }

  #schedule(): void {
    if (this.#closed) return;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#run();
    }, this.#options.debounceMs);
  }

  #run(): void {
    if (this.#running) {
      this.#again = true;
      return;
    }
    this.#running = this.#options
      .onChange()
      .catch((error) => this.#options.onError(error))
      .finally(() => {
        this.#running = undefined;
        if (this.#again && !this.#closed) {
          this.#again = false;
          this.#run();
        }
      });
  }

  async close(): Promise<void> {
    this.#closed = true;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
    await this.#watcher?.close();
    this.#watcher = undefined;
    await this.#running;
  }
}
