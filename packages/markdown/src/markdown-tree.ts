import { createHash, type Hash } from "node:crypto";
import { readFileSync, unlinkSync } from "node:fs";
import { join, sep } from "node:path";
import { ConflictError, type MemoryEntry } from "@memory/api";
import { editedText, type FileEdit } from "./file-edit.js";
import { appendInPlace } from "./files/append-write.js";
import { prepareFileAtomic } from "./files/atomic-write.js";
import { decode, readStable, type Stamp, sameStamp, stampOf } from "./files/file-stamp.js";
import { formatEntryLine } from "./format/entry-line.js";
import { dateOf, type FileRole, fileRole, fileTitle, STATE_DIR } from "./format/layout.js";
import {
  type FileProblem,
  type ParsedMarkdown,
  parseMarkdownFile,
} from "./format/markdown-file.js";
import { refuseLinkedDirectory } from "./linked-directory.js";
import { entryOfLine, stableId } from "./row-entry.js";
import {
  appendedBytes,
  grownFile,
  isAppendable,
  isAppendOnly,
  withAppendedLines,
} from "./tree-append.js";
import { walkTree } from "./tree-walk.js";

/** Where a recallable row comes from: a file and its lines (1-based, inclusive). */
export interface RowSource {
  path: string;
  startLine: number;
  endLine: number;
}

/** One entry or free-text chunk as the tree holds it. */
export interface TreeRow {
  entry: MemoryEntry;
  kind: "entry" | "chunk";
  source: RowSource;
  /** Other lines holding the same (namespace, key), older ones: removed on the next write of the key. */
  duplicates: RowSource[];
}

/**
 * Rows appended to a file since it was read whole: `hash` is the file's hash before them, and
 * each step the hash after an append and how many rows had come by then, so the index can take
 * the rows after whichever of those versions it holds (another process may have indexed some).
 */
export interface AppendedRows {
  hash: string;
  rows: TreeRow[];
  steps: { hash: string; rows: number }[];
}

/** One Markdown file of the tree, parsed. */
export interface TreeFile {
  /** Relative to the root, `/` separators. */
  path: string;
  namespace: string;
  /** Path inside the namespace directory (`MEMORY.md`, `memory/2026-11-24.md`). */
  inner: string;
  role: FileRole;
  ino: number;
  ctimeMs: number;
  hash: string;
  /** SHA-256 state after the file's bytes: an append extends the hash without reading the file. */
  hasher: Hash;
  size: number;
  mtimeMs: number;
  parsed: ParsedMarkdown;
  /** Not valid UTF-8: read (with replacement characters) but never rewritten. */
  invalidUtf8: boolean;
  entries: TreeRow[];
  chunks: TreeRow[];
  problems: FileProblem[];
  /** An append changes nothing but its own lines (see `isAppendable`): it is made in place. */
  appendable: boolean;
  /**
   * Set when the file only grew by appends since it was last read whole (this process's, or
   * another's read as new lines), until the index takes them: the index then upserts only them.
   */
  appendedFrom?: AppendedRows;
}

export function sha256(data: Uint8Array | string): string {
  return createHash("sha256").update(data).digest("hex");
}

/**
 * The files of a memory tree, parsed and kept current: `refresh()` stats every Markdown file
 * (cheap) and re-reads only those whose inode, size or times changed, re-parsing only those
 * whose content hash changed. Rows are rebuilt when anything changed (`generation` counts).
 */
export class MarkdownTree {
  readonly root: string;
  readonly files = new Map<string, TreeFile>();
  /** Bumped whenever the rows may have changed. */
  generation = 0;
  #rows = new Map<string, Map<string, TreeRow>>();
  #chunks = new Map<string, TreeRow[]>();
  #rowsGeneration = -1;
  /** Role and absolute path of every path seen (both depend on the path only). */
  readonly #roles = new Map<string, { role: FileRole | null; absolute: string }>();

  constructor(root: string) {
    this.root = root;
  }

  /** Re-reads what changed on disk. Returns the paths whose content changed (or vanished). */
  refresh(): string[] {
    const changed: string[] = [];
    const seen = new Set<string>();
    for (const { path, namespace, inner } of walkTree(this.root)) {
      seen.add(path);
      let cached = this.#roles.get(path);
      if (cached === undefined) {
        cached = { role: fileRole(inner) ?? null, absolute: `${this.root}${sep}${path}` };
        this.#roles.set(path, cached);
      }
      const { role, absolute } = cached;
      if (!role) continue;
      let stat = stampOf(absolute);
      if (!stat) continue;
      const known = this.files.get(path);
      if (known && sameStamp(known, stat)) continue;
      const read = readStable(absolute, stat);
      if (!read) continue; // vanished between the walk and the read
      const { bytes } = read;
      stat = read.stamp;
      // Grown by appends of another process (another server worker): parse only the new lines.
      const grown = known && grownFile(known, bytes, stat);
      if (grown) {
        this.files.set(path, grown.file);
        this.#addRows(grown.file, grown.added);
        changed.push(path);
        continue;
      }
      const hasher = createHash("sha256").update(bytes);
      const hash = hasher.copy().digest("hex");
      if (known && known.hash === hash) {
        Object.assign(known, stat);
        continue;
      }
      const { text, invalid } = decode(bytes);
      this.files.set(
        path,
        this.#build(path, namespace, inner, role, text, invalid, { hash, hasher }, stat),
      );
      this.generation++;
      changed.push(path);
    }
    for (const path of [...this.files.keys()]) {
      if (!seen.has(path)) {
        this.files.delete(path);
        this.generation++;
        changed.push(path);
      }
    }
    return changed;
  }

  #build(
    path: string,
    namespace: string,
    inner: string,
    role: FileRole,
    text: string,
    invalidUtf8: boolean,
    digest: { hash: string; hasher: Hash },
    stat: Stamp,
  ): TreeFile {
    const parsed = parseMarkdownFile(text, role);
    const problems = [...parsed.problems];
    if (invalidUtf8)
      problems.push({
        line: 0,
        message:
          "the file is not valid UTF-8: it is read with replacement characters and never rewritten; fix its encoding",
      });
    const modified = new Date(Math.floor(stat.mtimeMs)).toISOString();
    // A daily log edited on another day still dates what it holds by its name.
    const fileTime =
      role.loggedAt !== undefined && dateOf(modified) !== dateOf(role.loggedAt)
        ? role.loggedAt
        : modified;
    const rows: TreeRow[] = [];
    for (const found of parsed.entries) {
      const at = { path, startLine: found.line, endLine: found.line };
      const entry = entryOfLine(found, found.metadata, namespace, role, fileTime, (message) =>
        problems.push({ line: found.line, message }),
      );
      if (entry) rows.push({ entry, kind: "entry", source: at, duplicates: [] });
    }
    const chunks: TreeRow[] = parsed.chunks.map((chunk) => {
      const key = `${inner}#${chunk.anchor}`;
      return {
        kind: "chunk",
        source: { path, startLine: chunk.startLine, endLine: chunk.endLine },
        duplicates: [],
        entry: {
          id: stableId("chunk", namespace, key),
          key,
          content: chunk.content,
          category: role.category,
          namespace,
          createdAt: fileTime,
          updatedAt: fileTime,
        },
      };
    });
    const file = {
      path,
      namespace,
      inner,
      role,
      ...stat,
      ...digest,
      parsed,
      invalidUtf8,
      entries: rows,
      chunks,
      problems: problems.sort((a, b) => a.line - b.line),
    };
    return { ...file, appendable: isAppendable(file) };
  }

  #index(): void {
    if (this.#rowsGeneration === this.generation) return;
    const rows = new Map<string, Map<string, TreeRow>>();
    const chunks = new Map<string, TreeRow[]>();
    const paths = [...this.files.keys()].sort();
    for (const path of paths) {
      const file = this.files.get(path) as TreeFile;
      let keys = rows.get(file.namespace);
      if (!keys) {
        keys = new Map();
        rows.set(file.namespace, keys);
      }
      for (const row of file.entries) {
        const current = keys.get(row.entry.key);
        if (!current) {
          keys.set(row.entry.key, { ...row, duplicates: [] });
          continue;
        }
        // Two lines for one key (a move interrupted, a hand edit): the newest wins, the other
        // is reported by doctor and removed on the next write of the key.
        if (row.entry.updatedAt > current.entry.updatedAt) {
          keys.set(row.entry.key, {
            ...row,
            duplicates: [...current.duplicates, current.source],
          });
        } else current.duplicates.push(row.source);
      }
    }
    for (const path of paths) {
      const file = this.files.get(path) as TreeFile;
      const keys = rows.get(file.namespace);
      const list = chunks.get(file.namespace) ?? [];
      // A stored entry with the same key as a chunk hides the chunk.
      for (const chunk of file.chunks) if (!keys?.has(chunk.entry.key)) list.push(chunk);
      chunks.set(file.namespace, list);
    }
    this.#rows = rows;
    this.#chunks = chunks;
    this.#rowsGeneration = this.generation;
  }

  /** Entries of one namespace, by key. */
  entries(namespace: string): Map<string, TreeRow> {
    this.#index();
    return this.#rows.get(namespace) ?? new Map();
  }

  /** Entries of every namespace. */
  *allEntries(): Iterable<TreeRow> {
    this.#index();
    for (const keys of this.#rows.values()) yield* keys.values();
  }

  /** Free-text chunks of one namespace. */
  chunks(namespace: string): TreeRow[] {
    this.#index();
    return this.#chunks.get(namespace) ?? [];
  }

  *allChunks(): Iterable<TreeRow> {
    this.#index();
    for (const list of this.#chunks.values()) yield* list;
  }

  namespaces(): string[] {
    this.#index();
    return [...this.#rows.keys()];
  }

  /**
   * Writes edits, compare-and-swap: each file must still have the hash it was parsed with (or
   * still be absent). Returns false, writing nothing, when one changed; the caller refreshes and
   * plans again. Call with the tree lock held.
   */
  apply(
    edits: Map<string, FileEdit>,
    titles: Map<string, string>,
    beforeCommit?: () => void,
  ): boolean {
    interface Plan {
      path: string;
      known: TreeFile | undefined;
      edit: FileEdit;
      /** The whole new text (undefined: the file is deleted), for a rewrite. */
      text?: string | undefined;
      /** The bytes appended in place, for a new line at the end of an appendable file. */
      append?: Buffer;
    }
    const planned: Plan[] = [];
    for (const [path, edit] of edits) {
      const known = this.files.get(path);
      if (known?.invalidUtf8) {
        throw new ConflictError(
          `${path} is not valid UTF-8, so the memory will not rewrite it; fix its encoding (memory doctor lists it).`,
        );
      }
      refuseLinkedDirectory(this.root, path);
      // A new line at the end is appended in place: its cost does not grow with the file.
      if (known && isAppendOnly(known, edit))
        planned.push({ path, known, edit, append: appendedBytes(known, edit) });
      else
        planned.push({
          path,
          known,
          edit,
          text: editedText(known?.parsed, edit, titles.get(path)),
        });
    }
    // Written and flushed first; each is then checked and renamed at once (the CAS window is a
    // read and a rename, not a write and an fsync).
    const prepared = planned.map((plan) =>
      plan.append !== undefined || plan.text === undefined
        ? undefined
        : prepareFileAtomic(join(this.root, plan.path), plan.text),
    );
    let rewritten = false;
    try {
      // Inside the try: a hook that throws must not leave the prepared temporary files behind.
      beforeCommit?.();
      for (const [at, plan] of planned.entries()) {
        // Files already replaced stay so (each is consistent); the caller plans the write again
        // against what the files hold now, which completes it.
        if (plan.append !== undefined && plan.known !== undefined) {
          // The compare-and-swap is on the file's stamp, taken again on the open file.
          if (!this.#appended(plan.known, plan.edit, plan.append)) return false;
          continue;
        }
        if (!this.#unchanged(plan.path, plan.known)) return false;
        rewritten = true;
        const absolute = join(this.root, plan.path);
        const write = prepared[at];
        if (write) write.commit();
        else
          try {
            unlinkSync(absolute);
          } catch {}
        prepared[at] = undefined;
      }
    } finally {
      for (const write of prepared) write?.abort();
    }
    // Appends updated the parsed files themselves; rewritten files are read again.
    if (rewritten) this.refresh();
    return true;
  }

  /**
   * Appends in place and takes the new lines into the parsed file and the rows without reading
   * the file again; false, nothing written, when the file changed since it was parsed.
   */
  #appended(known: TreeFile, edit: FileEdit, bytes: Buffer): boolean {
    const result = appendInPlace(this.root, join(this.root, STATE_DIR), known.path, bytes, known);
    if (!result) return false;
    const next = result.alone ? withAppendedLines(known, edit, bytes, result.stamp) : undefined;
    if (!next) {
      // Someone wrote beside the lock, or a line reads unexpectedly: read the file again.
      this.files.delete(known.path);
      this.refresh();
      return true;
    }
    this.files.set(known.path, next.file);
    this.#addRows(next.file, next.added);
    return true;
  }

  /** Takes rows appended to a file into the rows by namespace (bumping the generation). */
  #addRows(next: TreeFile, added: TreeRow[]): void {
    const fresh = this.#rowsGeneration === this.generation;
    this.generation++;
    const keys = this.#rows.get(next.namespace);
    // New keys (no line of the namespace holds them, no chunk has their name) join the rows
    // as they are; anything else rebuilds the rows from the files at the next read.
    if (
      fresh &&
      keys !== undefined &&
      added.every((row) => !keys.has(row.entry.key) && !row.entry.key.includes("#"))
    ) {
      for (const row of added) keys.set(row.entry.key, { ...row, duplicates: [] });
      this.#rowsGeneration = this.generation;
    } else next.appendedFrom = undefined;
  }

  /** True when the file still has the content it was parsed with (or is still absent). */
  #unchanged(path: string, known: TreeFile | undefined): boolean {
    let current: Buffer | undefined;
    try {
      current = readFileSync(join(this.root, path));
    } catch {
      current = undefined;
    }
    if ((current === undefined) !== (known === undefined)) return false;
    return current === undefined || (known !== undefined && sha256(current) === known.hash);
  }
}

export { emptyEdit, type FileEdit } from "./file-edit.js";
export { stableId } from "./row-entry.js";
export { fileTitle, formatEntryLine };
