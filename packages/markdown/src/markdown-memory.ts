import type {
  EmbeddingJobReport,
  FileBackedMemory,
  FileProblem,
  FileSegment,
  FileSegmentRequest,
  IndexDriverFactory,
  MemoryEntry,
  ReindexOptions,
} from "@memory/api";
import { facadeOptionsFrom, MemoryFacade } from "@memory/core";
import { encodeNamespace } from "./format/layout.js";
import { MarkdownDriver } from "./markdown-driver.js";
import { MARKDOWN_DEFAULTS, type MarkdownMemoryOptions } from "./markdown-options.js";
import type { MarkdownTree } from "./markdown-tree.js";
import type { MemoryFileText, ReplaceFileOptions, ReplaceFileResult } from "./tree-files.js";

/** A recall result of the Markdown backend: the entry, with `source` (its file and lines) set. */
export type MarkdownRecallResult = MemoryEntry;

/**
 * The derived index: SQLite's driver over `index.db`. This composition root is the one place
 * that names `@memory/sqlite` (loaded on first open); the driver only sees the factory.
 */
function sqliteIndex(embeddingCacheMax: number): IndexDriverFactory {
  return async (file) => {
    const { SqliteDriver } = await import("@memory/sqlite");
    return new SqliteDriver({ path: file, embeddingCacheMax });
  };
}

function markdownDriver(options: MarkdownMemoryOptions): MarkdownDriver {
  const indexed = options?.index ?? MARKDOWN_DEFAULTS.index;
  return new MarkdownDriver({
    ...options,
    ...(indexed
      ? {
          openIndex: sqliteIndex(options.embeddingCacheMax ?? MARKDOWN_DEFAULTS.embeddingCacheMax),
        }
      : {}),
  });
}

/**
 * Markdown files as the source of truth (README): `@memory/core`'s facade over the Markdown
 * driver, plus the file access consolidation and tools use. Nothing is read or created until
 * the first operation (or `init()`).
 */
export class MarkdownMemory extends MemoryFacade {
  readonly #markdown: MarkdownDriver;

  constructor(options: MarkdownMemoryOptions) {
    const driver = markdownDriver(options);
    super(driver, facadeOptionsFrom(options));
    this.#markdown = driver;
  }

  /** The tree's root directory (absolute). */
  get root(): string {
    return this.#markdown.root;
  }

  /** Whether this memory keeps the derived SQLite index. */
  get indexed(): boolean {
    return this.#markdown.indexed;
  }

  /** The parsed tree, read-only, for doctor, consolidation and tests (valid once open). */
  get tree(): MarkdownTree {
    return this.#markdown.state.tree;
  }

  /** The declared file-backed extension, always present on this backend. */
  get #files(): FileBackedMemory {
    return this.files!;
  }

  /** See {@link FileBackedMemory.readSegment}. */
  readSegment(request: FileSegmentRequest): Promise<FileSegment> {
    return this.#files.readSegment(request);
  }

  /** See {@link FileBackedMemory.problems}. */
  problems(): Promise<FileProblem[]> {
    return this.#files.problems();
  }

  /** See {@link FileBackedMemory.indexStatus}. */
  indexStatus(): Promise<{ enabled: boolean; current: boolean; stale: string[] }> {
    return this.#files.indexStatus();
  }

  /** A memory file's whole text and hash (see `TreeFiles.readFile`). */
  async readFile(path: string): Promise<MemoryFileText | null> {
    await this.init();
    return this.#markdown.files.readFile(path);
  }

  /** Replaces a whole memory file, compare-and-swapped (see `TreeFiles.replaceFile`). */
  async replaceFile(
    path: string,
    text: string,
    options: ReplaceFileOptions,
  ): Promise<ReplaceFileResult> {
    await this.init();
    return this.#markdown.files.replaceFile(path, text, options);
  }

  /**
   * Rebuilds the index from the files (drops it, re-reads every file), then re-embeds every
   * entry with the current provider. Without the index there is nothing to rebuild.
   */
  override async reindex(options: ReindexOptions = {}): Promise<EmbeddingJobReport> {
    await this.init();
    await this.#markdown.rebuildIndex();
    return super.reindex(options);
  }
}

/** The namespace directory name of a namespace (README, "Layout"). */
export { encodeNamespace };

/** Creates a Markdown memory over the tree at `options.root`. Nothing is read or created until first use. */
export function createMarkdownMemory(options: MarkdownMemoryOptions): MarkdownMemory {
  return new MarkdownMemory(options);
}
