import { createHash } from "node:crypto";
import { type Dirent, lstatSync, readdirSync, readFileSync, statSync, unlinkSync } from "node:fs";
import { join, sep } from "node:path";
import {
  ConflictError,
  DEFAULT_NAMESPACE,
  type MemoryEntry,
  validateContent,
  validateKey,
  validateSessionId,
} from "@memory/api";
import { prepareFileAtomic } from "./files/atomic-write.js";
import { type EntryMetadata, formatEntryLine } from "./format/entry-line.js";
import {
  CORE_FILE,
  dateOf,
  decodeNamespace,
  type FileRole,
  fileRole,
  fileTitle,
  isHashedNamespace,
  MEMORY_DIR,
  NAMESPACE_NAME_FILE,
  NAMESPACES_DIR,
} from "./format/layout.js";
import {
  dominantEol,
  type FileLine,
  type FileProblem,
  joinLines,
  type ParsedMarkdown,
  parseMarkdownFile,
} from "./format/markdown-file.js";
import { isSymbolicLink, refuseLinkedDirectory } from "./linked-directory.js";

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
  size: number;
  mtimeMs: number;
  parsed: ParsedMarkdown;
  /** Not valid UTF-8: read (with replacement characters) but never rewritten. */
  invalidUtf8: boolean;
  entries: TreeRow[];
  chunks: TreeRow[];
  problems: FileProblem[];
}

/** A change to one file: lines replaced, deleted, appended. */
export interface FileEdit {
  replace: Map<number, string>;
  remove: Set<number>;
  append: string[];
}

const STORAGE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** A deterministic UUID (version 8 layout) for rows that carry no id of their own. */
export function stableId(...parts: string[]): string {
  const hex = createHash("sha256").update(parts.join("\u0000"), "utf8").digest("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${((Number.parseInt(hex[16] as string, 16) & 3) | 8).toString(16)}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

export function sha256(data: Uint8Array | string): string {
  return createHash("sha256").update(data).digest("hex");
}

const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
const lenient = new TextDecoder("utf-8", { ignoreBOM: true });

/** Reads a file's text; `invalid` when it is not valid UTF-8. */
function decode(bytes: Uint8Array): { text: string; invalid: boolean } {
  try {
    return { text: decoder.decode(bytes), invalid: false };
  } catch {
    return { text: lenient.decode(bytes), invalid: true };
  }
}

interface Stamp {
  ino: number;
  size: number;
  mtimeMs: number;
  ctimeMs: number;
}

function stampOf(file: string): Stamp | undefined {
  // Plain (not bigint) stat: mtime/ctime in fractional milliseconds still tell two saves
  // apart, and the inode changes on every atomic rename.
  const stat = statSync(file, { throwIfNoEntry: false });
  if (!stat?.isFile()) return undefined;
  return { ino: stat.ino, size: stat.size, mtimeMs: stat.mtimeMs, ctimeMs: stat.ctimeMs };
}

const sameStamp = (a: Stamp, b: Stamp) =>
  a.ino === b.ino && a.size === b.size && a.mtimeMs === b.mtimeMs && a.ctimeMs === b.ctimeMs;

function entries(dir: string): Dirent[] {
  try {
    return readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
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

  /** Every Markdown file of the tree, as (relative path, namespace, inner path). */
  #walk(): { path: string; namespace: string; inner: string }[] {
    const found: { path: string; namespace: string; inner: string }[] = [];
    const collect = (dir: string, namespace: string) => {
      const prefix = dir === "" ? "" : `${dir}/`;
      const core = join(this.root, prefix, CORE_FILE);
      if (isRegular(core))
        found.push({ path: `${prefix}${CORE_FILE}`, namespace, inner: CORE_FILE });
      const visit = (relative: string) => {
        for (const item of entries(join(this.root, prefix, relative))) {
          if (item.name.startsWith(".")) continue; // temp files, state
          const inner = `${relative}/${item.name}`;
          if (item.isDirectory()) visit(inner);
          else if (item.isFile() && item.name.endsWith(".md"))
            found.push({ path: `${prefix}${inner}`, namespace, inner });
        }
      };
      // Linked folders are not followed (nested ones are not directories to readdir's Dirent):
      // a namespace's memory/ linked to another's would show that namespace's entries.
      if (!isSymbolicLink(join(this.root, prefix, MEMORY_DIR))) visit(MEMORY_DIR);
    };
    collect("", DEFAULT_NAMESPACE);
    const namespaces = join(this.root, NAMESPACES_DIR);
    for (const item of isSymbolicLink(namespaces) ? [] : entries(namespaces)) {
      if (!item.isDirectory()) continue;
      let namespace = decodeNamespace(item.name);
      if (namespace === undefined && isHashedNamespace(item.name)) {
        try {
          namespace = readFileSync(
            join(this.root, NAMESPACES_DIR, item.name, NAMESPACE_NAME_FILE),
            "utf8",
          );
        } catch {}
      }
      if (namespace === undefined || namespace === DEFAULT_NAMESPACE) continue;
      collect(`${NAMESPACES_DIR}/${item.name}`, namespace);
    }
    return found;
  }

  /** Re-reads what changed on disk. Returns the paths whose content changed (or vanished). */
  refresh(): string[] {
    const changed: string[] = [];
    const seen = new Set<string>();
    for (const { path, namespace, inner } of this.#walk()) {
      seen.add(path);
      let cached = this.#roles.get(path);
      if (cached === undefined) {
        cached = { role: fileRole(inner) ?? null, absolute: `${this.root}${sep}${path}` };
        this.#roles.set(path, cached);
      }
      const { role, absolute } = cached;
      if (!role) continue;
      const stat = stampOf(absolute);
      if (!stat) continue;
      const known = this.files.get(path);
      if (known && sameStamp(known, stat)) continue;
      let bytes: Buffer;
      try {
        bytes = readFileSync(absolute);
      } catch {
        continue; // vanished between the walk and the read
      }
      const hash = sha256(bytes);
      if (known && known.hash === hash) {
        Object.assign(known, stat);
        continue;
      }
      const { text, invalid } = decode(bytes);
      this.files.set(path, this.#build(path, namespace, inner, role, text, invalid, hash, stat));
      changed.push(path);
    }
    for (const path of [...this.files.keys()]) {
      if (!seen.has(path)) {
        this.files.delete(path);
        changed.push(path);
      }
    }
    if (changed.length > 0) this.generation++;
    return changed;
  }

  #build(
    path: string,
    namespace: string,
    inner: string,
    role: FileRole,
    text: string,
    invalidUtf8: boolean,
    hash: string,
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
      const entry = this.#entryOf(found, found.metadata, namespace, role, fileTime, (message) =>
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
    return {
      path,
      namespace,
      inner,
      role,
      ...stat,
      hash,
      parsed,
      invalidUtf8,
      entries: rows,
      chunks,
      problems: problems.sort((a, b) => a.line - b.line),
    };
  }

  #entryOf(
    found: { key: string; content: string; conversation: boolean },
    metadata: EntryMetadata | undefined,
    namespace: string,
    role: FileRole,
    fileTime: string,
    problem: (message: string) => void,
  ): MemoryEntry | undefined {
    try {
      validateKey(found.key);
      validateContent(found.content);
    } catch (error) {
      problem(`entry not loaded: ${(error as Error).message}`);
      return undefined;
    }
    const time = (value: string | undefined, field: string): string | undefined => {
      if (value === undefined) return undefined;
      if (STORAGE_TIME.test(value) && !Number.isNaN(Date.parse(value))) return value;
      problem(
        `metadata ${field} ${JSON.stringify(value)} is not a UTC time like 2026-01-31T12:00:00.000Z; the file's time is used`,
      );
      return undefined;
    };
    const createdAt = time(metadata?.createdAt, "createdAt") ?? fileTime;
    const entry: MemoryEntry = {
      id: metadata?.id ?? stableId("entry", namespace, found.key),
      key: found.key,
      content: found.content,
      category: found.conversation ? "conversation" : role.category,
      namespace,
      createdAt,
      updatedAt: time(metadata?.updatedAt, "updatedAt") ?? createdAt,
    };
    if (metadata?.sessionId !== undefined) {
      try {
        entry.sessionId = validateSessionId(metadata.sessionId);
      } catch (error) {
        problem(`metadata sessionId ignored: ${(error as Error).message}`);
      }
    }
    if (metadata?.importance !== undefined) {
      if (metadata.importance >= 0 && metadata.importance <= 1)
        entry.importance = metadata.importance;
      else problem("metadata importance ignored: it must be a number from 0 to 1");
    }
    if (metadata?.supersededBy !== undefined) {
      try {
        entry.supersededBy = validateKey(metadata.supersededBy, "supersededBy");
      } catch (error) {
        problem(`metadata supersededBy ignored: ${(error as Error).message}`);
      }
    }
    return entry;
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
    const planned: { path: string; known: TreeFile | undefined; text: string | undefined }[] = [];
    for (const [path, edit] of edits) {
      const known = this.files.get(path);
      if (known?.invalidUtf8) {
        throw new ConflictError(
          `${path} is not valid UTF-8, so the memory will not rewrite it; fix its encoding (memory doctor lists it).`,
        );
      }
      refuseLinkedDirectory(this.root, path);
      planned.push({ path, known, text: editedText(known?.parsed, edit, titles.get(path)) });
    }
    // Written and flushed first; each is then checked and renamed at once (the CAS window is a
    // read and a rename, not a write and an fsync).
    const prepared = planned.map((plan) =>
      plan.text === undefined
        ? undefined
        : prepareFileAtomic(join(this.root, plan.path), plan.text),
    );
    beforeCommit?.();
    try {
      for (const [at, plan] of planned.entries()) {
        // Files already replaced stay so (each is consistent); the caller plans the write again
        // against what the files hold now, which completes it.
        if (!this.#unchanged(plan.path, plan.known)) return false;
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
    this.refresh();
    return true;
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

function isRegular(file: string): boolean {
  try {
    return lstatSync(file).isFile();
  } catch {
    return false;
  }
}

/**
 * A file's new text after an edit; undefined when the file would hold nothing but its title
 * and blank lines (it is then deleted). Untouched lines keep their exact bytes and line breaks.
 */
function editedText(
  parsed: ParsedMarkdown | undefined,
  edit: FileEdit,
  title: string | undefined,
): string | undefined {
  const lines: FileLine[] = [];
  const source = parsed?.lines ?? [];
  const eol = parsed ? dominantEol(source) : "\n";
  source.forEach((line, index) => {
    const number = index + 1;
    if (edit.remove.has(number)) return;
    const replacement = edit.replace.get(number);
    lines.push(replacement === undefined ? line : { text: replacement, eol: line.eol });
  });
  if (edit.append.length > 0) {
    if (lines.length === 0 && title !== undefined) {
      lines.push({ text: title, eol }, { text: "", eol });
    }
    const last = lines.at(-1);
    if (last && last.eol === "") last.eol = eol;
    for (const text of edit.append) lines.push({ text, eol });
  }
  const meaningful = lines.some(
    (line) => line.text.trim() !== "" && (title === undefined || line.text !== title),
  );
  if (!meaningful && parsed !== undefined) return undefined;
  return joinLines(lines, parsed?.bom ?? false);
}

/** An edit that does nothing yet. */
export function emptyEdit(): FileEdit {
  return { replace: new Map(), remove: new Set(), append: [] };
}

export { fileTitle, formatEntryLine };
