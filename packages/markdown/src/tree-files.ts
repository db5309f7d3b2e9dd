import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import {
  ConflictError,
  type DerivedIndexStatus,
  type FileBackedMemory,
  type FileProblem,
  type MemoryFileInfo,
} from "@memory/api";
import { prepareFileAtomic } from "./files/atomic-write.js";
import { keepPreviousVersion } from "./files/history.js";
import { joinLines } from "./format/markdown-file.js";
import { refuseLinkedDirectory } from "./linked-directory.js";
import { sha256, type TreeRow } from "./markdown-tree.js";
import { checkTreePath, readSegment } from "./read-segment.js";
import type { TreeState } from "./tree-state.js";

/** One memory file's whole text, as {@link TreeFiles.readFile} returns it. */
export interface MemoryFileText {
  /** Relative to the root, `/` separators. */
  path: string;
  namespace: string;
  /** The text (a BOM, if any, left out; line breaks as in the file). */
  text: string;
  /** The file starts with a BOM (`text` does not hold it). */
  bom: boolean;
  /** SHA-256 (hex) of the file's bytes: the `expectedHash` of {@link TreeFiles.replaceFile}. */
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

/** The file-backed extension of a memory tree, plus the whole-file access consolidation uses. */
export class TreeFiles implements FileBackedMemory {
  readonly #state: TreeState;
  /** The tree, its index open; `create`: even if the tree must be created for it. */
  readonly #ready: (create: boolean) => Promise<TreeState>;
  readonly #beforeCommit: (() => void) | undefined;
  readonly #indexed: boolean;

  constructor(
    state: TreeState,
    ready: (create: boolean) => Promise<TreeState>,
    indexed: boolean,
    beforeCommit?: () => void,
  ) {
    this.#indexed = indexed;
    this.#state = state;
    this.#ready = ready;
    this.#beforeCommit = beforeCommit;
  }

  /**
   * Reads lines of a file of the tree (the `memory_get` tool): `path` relative to the root,
   * `from` the first line (1-based, default 1), `lines` how many (default all, at most 2,000).
   * Confined to the tree: absolute paths, `..`, symbolic links leading outside and files other
   * than `.md` are refused with INVALID_INPUT; a missing file is NOT_FOUND.
   */
  readSegment(request: { path: string; from?: number; lines?: number }) {
    return readSegment(this.#state.root, request);
  }

  async listFiles(): Promise<MemoryFileInfo[]> {
    const state = await this.#ready(false);
    await state.refresh();
    return [...state.tree.files.values()]
      .sort((a, b) => (a.path < b.path ? -1 : 1))
      .map((file) => ({
        path: file.path,
        namespace: file.namespace,
        hash: file.hash,
        problems: file.problems.length,
      }));
  }

  /** Problems found in the files (unreadable entry lines, duplicates), with file and line. */
  async problems(): Promise<FileProblem[]> {
    const state = await this.#ready(false);
    await state.refresh();
    const { tree } = state;
    const out: FileProblem[] = [];
    for (const file of [...tree.files.values()].sort((a, b) => (a.path < b.path ? -1 : 1)))
      for (const problem of file.problems) out.push({ path: file.path, ...problem });
    const ids = new Map<string, TreeRow>();
    for (const row of tree.allEntries()) {
      const first = ids.get(row.entry.id);
      if (first)
        out.push({
          path: row.source.path,
          line: row.source.startLine,
          message: `id ${row.entry.id} is also the id of key ${JSON.stringify(first.entry.key)} (${first.source.path}:${first.source.startLine}), a line copied by hand: remove this line's metadata comment to give it an id of its own (an export or migrate would reject one of the two)`,
        });
      else ids.set(row.entry.id, row);
    }
    for (const row of tree.allEntries())
      for (const duplicate of row.duplicates)
        out.push({
          path: duplicate.path,
          line: duplicate.startLine,
          message: `duplicate of key ${JSON.stringify(row.entry.key)} (${row.source.path}:${row.source.startLine} is newer and wins); the next write of the key removes this line`,
        });
    return out;
  }

  /** Whether the index holds exactly what the files hold now, read before catching it up. */
  async indexStatus(): Promise<DerivedIndexStatus> {
    const state = await this.#ready(false);
    state.tree.refresh();
    // A tree that does not exist yet has nothing to index: its index is current.
    if (!state.index) return { enabled: this.#indexed, current: true, stale: [] };
    const stale = state.index.staleFiles(state.tree);
    return { enabled: true, current: stale.length === 0, stale };
  }

  /**
   * A memory file's whole text and hash, as the tree holds it now; null when the tree has no
   * such file. `path` must name a memory file (`MEMORY.md`, `memory/*.md`, the same under
   * `namespaces/<dir>/`): anything else is INVALID_INPUT, so this never reads outside the tree.
   */
  async readFile(path: string): Promise<MemoryFileText | null> {
    const state = await this.#ready(false);
    const checked = checkTreePath(state.root, path);
    await state.refresh();
    const file = state.tree.files.get(checked.path);
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
    const state = await this.#ready(true);
    const { root } = state;
    const checked = checkTreePath(root, path);
    refuseLinkedDirectory(root, checked.path);
    const target = join(root, checked.path);
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
    return state.rewrite(() => {
      if (state.tree.files.get(checked.path)?.invalidUtf8)
        throw new ConflictError(
          `${checked.path} is not valid UTF-8, so the memory will not rewrite it; fix its encoding (memory doctor lists it).`,
        );
      const previous = current();
      if (changed(previous)) throw conflict();
      const backup =
        options.keepPrevious && previous !== null
          ? keepPreviousVersion(root, checked.path, previous, options.at ?? new Date())
          : undefined;
      const write = prepareFileAtomic(target, text);
      try {
        this.#beforeCommit?.();
        // The compare-and-swap: the window is this read and the rename.
        if (changed(current())) {
          if (backup !== undefined) rmSync(join(root, backup), { force: true });
          throw conflict();
        }
        write.commit();
      } finally {
        write.abort();
      }
      return {
        path: checked.path,
        hash: sha256(text),
        ...(backup === undefined ? {} : { backup }),
      };
    });
  }
}
