import type { MemoryDriver } from "./memory-driver.js";

/** Where to read in a memory file: `path` relative to the store's root, `/` separators. */
export interface FileSegmentRequest {
  path: string;
  /** First line, 1-based. Default 1. */
  from?: number;
  /** How many lines. Default (and at most) what the backend allows in one read. */
  lines?: number;
}

/** Lines of a memory file. */
export interface FileSegment {
  path: string;
  /** The namespace whose file this is (servers check a caller's scope with it). */
  namespace: string;
  /** First line returned (1-based). */
  from: number;
  /** Last line returned (inclusive); `from - 1` when nothing was left to read. */
  to: number;
  /** Lines in the whole file. */
  totalLines: number;
  /** The lines, joined with `\n`. */
  text: string;
}

/** One memory file of the store. */
export interface MemoryFileInfo {
  /** Relative to the root, `/` separators. */
  path: string;
  namespace: string;
  /** SHA-256 (hex) of the file's bytes. */
  hash: string;
  /** Lines the backend could not read as entries. */
  problems: number;
}

/** A line of a memory file the backend could not read as an entry, or a duplicate. */
export interface FileProblem {
  path: string;
  line: number;
  message: string;
}

/** Whether a derived index holds exactly what the files hold now (doctor: index freshness). */
export interface DerivedIndexStatus {
  enabled: boolean;
  current: boolean;
  /** Files the index has not seen as they are now. */
  stale: string[];
}

/**
 * The declared extension of a backend whose source of truth is a tree of files people may read
 * and edit (`@memory/markdown`). A backend that has it sets `capabilities.fileBacked`, and its
 * `Memory` (and driver) expose it as `files`; apps use {@link fileBackedOf} instead of probing
 * for methods or names.
 */
export interface FileBackedMemory {
  /** Lines of a file of the tree, confined to it (anything outside is INVALID_INPUT). */
  readSegment(request: FileSegmentRequest): Promise<FileSegment>;
  /** The memory files, sorted by path. */
  listFiles(): Promise<MemoryFileInfo[]>;
  /** Lines not read as entries, duplicated ids and keys, with file and line. */
  problems(): Promise<FileProblem[]>;
  /** The derived index's freshness, read without bringing it up to date. */
  indexStatus(): Promise<DerivedIndexStatus>;
}

/** The file-backed extension of a memory, when its backend declares one. */
export function fileBackedOf(memory: {
  readonly capabilities: { fileBacked?: boolean };
  readonly files?: FileBackedMemory | undefined;
}): FileBackedMemory | undefined {
  return memory.capabilities.fileBacked === true ? memory.files : undefined;
}

/**
 * Opens the driver a file-backed driver keeps its derived, rebuildable index in, over one
 * database file (`@memory/sqlite`'s `sqliteIndexDriver`). Injected, so that a driver package
 * never imports another driver package.
 */
export type IndexDriverFactory = (file: string) => MemoryDriver | Promise<MemoryDriver>;
