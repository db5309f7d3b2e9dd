import { type FSWatcher, watch } from "node:fs";
import type { Memory } from "@memory/api";
import type { CollectionDefinition } from "@memory/core";
import { type CollectionInput, listCollections } from "./collection-definitions.js";
import type { CollectionSyncReport } from "./collection-types.js";
import { syncCollections } from "./manage-collections.js";

/** How long a folder must be quiet before its collection is synced. */
export const WATCH_DEBOUNCE_MS = 1000;
/** How often the watcher looks for collections added or removed by other processes. */
export const WATCH_REFRESH_MS = 60_000;

/** A timer the watcher can cancel (tests inject their own clock). */
export interface WatchTimer {
  cancel(): void;
}

export interface CollectionWatcherOptions {
  /** memory.toml's `[collections.*]`. */
  configured?: readonly CollectionInput[];
  baseDir?: string;
  debounceMs?: number;
  refreshMs?: number;
  /** Runs `callback` after `ms` (default `setTimeout`, unref'd). */
  schedule?: (callback: () => void, ms: number) => WatchTimer;
  /** Watches a folder tree (default `fs.watch` with `recursive`). */
  watchFolder?: (folder: string, onChange: () => void) => { close(): void };
  /** After each sync. */
  onSync?: (reports: CollectionSyncReport[]) => void;
  /** A sync or a watch failed; the watcher goes on. */
  onError?: (error: unknown) => void;
}

function defaultSchedule(callback: () => void, ms: number): WatchTimer {
  const timer = setTimeout(callback, ms);
  timer.unref();
  return { cancel: () => clearTimeout(timer) };
}

function defaultWatch(folder: string, onChange: () => void): { close(): void } {
  const watcher: FSWatcher = watch(folder, { recursive: true, persistent: false }, onChange);
  // A folder that goes away ends its watch; the next refresh (and sync) says why.
  watcher.on("error", () => watcher.close());
  return watcher;
}

/**
 * Keeps collections fresh in a long-running process (the server, `memory worker`): one
 * recursive watch per collection folder; a change marks its collection, and once the folders
 * have been quiet for `debounceMs` the marked collections are synced (one sync at a time, the
 * sync lease keeps other processes out). Collections added or removed elsewhere are picked up
 * every `refreshMs`.
 */
export class CollectionWatcher {
  readonly #memory: Memory;
  readonly #options: CollectionWatcherOptions;
  readonly #watches = new Map<string, { folder: string; close(): void }>();
  readonly #dirty = new Set<string>();
  #debounce: WatchTimer | undefined;
  #refresh: WatchTimer | undefined;
  #running: Promise<void> = Promise.resolve();
  #closed = false;

  constructor(memory: Memory, options: CollectionWatcherOptions = {}) {
    this.#memory = memory;
    this.#options = options;
  }

  /** Syncs every collection once, then watches their folders. */
  async start(): Promise<void> {
    await this.#refreshWatches(true);
  }

  /** The collections watched now, by name. */
  get watched(): string[] {
    return [...this.#watches.keys()].sort();
  }

  /** Stops watching and waits for a sync in progress. Idempotent. */
  async close(): Promise<void> {
    this.#closed = true;
    this.#debounce?.cancel();
    this.#refresh?.cancel();
    for (const watch of this.#watches.values()) watch.close();
    this.#watches.clear();
    await this.#running;
  }

  #schedule(callback: () => void, ms: number): WatchTimer {
    return (this.#options.schedule ?? defaultSchedule)(callback, ms);
  }

  #changed(name: string): void {
    if (this.#closed) return;
    this.#dirty.add(name);
    this.#debounce?.cancel();
    this.#debounce = this.#schedule(() => {
      this.#debounce = undefined;
      this.#syncDirty();
    }, this.#options.debounceMs ?? WATCH_DEBOUNCE_MS);
  }

  #syncDirty(): void {
    const names = [...this.#dirty];
    this.#dirty.clear();
    if (names.length === 0 || this.#closed) return;
    this.#running = this.#running.then(() => this.#sync(names));
  }

  async #sync(names?: string[]): Promise<void> {
    if (this.#closed) return;
    try {
      const reports = await syncCollections(this.#memory, {
        configured: this.#options.configured ?? [],
        ...(this.#options.baseDir ? { baseDir: this.#options.baseDir } : {}),
        ...(names ? { names: names.filter((name) => this.#watches.has(name)) } : {}),
      });
      this.#options.onSync?.(reports);
    } catch (error) {
      this.#options.onError?.(error);
    }
  }

  async #refreshWatches(syncAll: boolean): Promise<void> {
    if (this.#closed) return;
    let definitions: CollectionDefinition[] = [];
    try {
      definitions = await listCollections(this.#memory, this.#options.configured ?? [], {
        ...(this.#options.baseDir ? { baseDir: this.#options.baseDir } : {}),
      });
    } catch (error) {
      this.#options.onError?.(error);
    }
    const current = new Map(definitions.map((definition) => [definition.name, definition]));
    for (const [name, watch] of this.#watches)
      if (current.get(name)?.path !== watch.folder) {
        watch.close();
        this.#watches.delete(name);
      }
    const added: string[] = [];
    for (const definition of definitions) {
      if (this.#watches.has(definition.name)) continue;
      try {
        const watch = (this.#options.watchFolder ?? defaultWatch)(definition.path, () =>
          this.#changed(definition.name),
        );
        this.#watches.set(definition.name, { folder: definition.path, close: () => watch.close() });
        added.push(definition.name);
      } catch (error) {
        this.#options.onError?.(error);
      }
    }
    if (syncAll || added.length > 0) {
      const names = syncAll ? undefined : added;
      this.#running = this.#running.then(() => this.#sync(names));
      await this.#running;
    }
    if (!this.#closed)
      this.#refresh = this.#schedule(
        () => void this.#refreshWatches(false),
        this.#options.refreshMs ?? WATCH_REFRESH_MS,
      );
  }
}
