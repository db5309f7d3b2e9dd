import { readFileSync, realpathSync, statSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { isAbsolute, relative, resolve, sep } from "node:path";
import { DEFAULT_NAMESPACE, InvalidInputError, NotFoundError } from "@memory/api";
import {
  decodeNamespace,
  fileRole,
  isHashedNamespace,
  NAMESPACE_NAME_FILE,
  NAMESPACES_DIR,
} from "./format/layout.js";
import { splitLines } from "./format/markdown-file.js";

/** What `readSegment` (the `memory_get` tool) reads. */
export interface ReadSegmentOptions {
  /** A file of the memory tree, relative to its root (`MEMORY.md`, `memory/2026-11-24.md`). */
  path: string;
  /** First line, 1-based. Default 1. */
  from?: number;
  /** How many lines. Default (and at most) 2,000. */
  lines?: number;
}

/** Lines of a memory file. */
export interface Segment {
  path: string;
  /**
   * The namespace whose file this is (servers check a caller's scope with it): that of the file
   * read, after symbolic links are followed, not of the folder the path names.
   */
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

export const MAX_SEGMENT_LINES = 2_000;

function positive(value: unknown, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isInteger(value) || value < 1)
    throw new InvalidInputError(`${name} must be an integer >= 1, got ${JSON.stringify(value)}.`);
  return value;
}

/**
 * Reads lines of a Markdown file inside `root`. Refused with INVALID_INPUT: a path that is not
 * a relative `.md` path, that holds `..` or a NUL, or that resolves (symbolic links followed)
 * outside the tree or to a file of the tree that is not a memory file; NOT_FOUND when the file
 * does not exist.
 */
export async function readSegment(root: string, options: ReadSegmentOptions): Promise<Segment> {
  const { segments, namespace } = checkTreePath(root, options?.path);
  const path = options.path;
  const from = positive(options.from, "from", 1);
  const count = Math.min(positive(options.lines, "lines", MAX_SEGMENT_LINES), MAX_SEGMENT_LINES);
  let realRoot: string;
  try {
    realRoot = realpathSync.native(resolve(root));
  } catch {
    throw new NotFoundError(`${path} does not exist: the memory tree ${root} is empty.`);
  }
  let real: string;
  try {
    real = realpathSync.native(resolve(root, path));
  } catch {
    throw new NotFoundError(
      `${path} does not exist in the memory tree; list files with memory doctor or recall to find paths.`,
    );
  }
  const inside = relative(realRoot, real);
  if (inside === "" || inside.startsWith(`..${sep}`) || inside === ".." || isAbsolute(inside))
    throw new InvalidInputError(
      `path ${JSON.stringify(path)} leads outside the memory tree (a symbolic link); it is refused.`,
    );
  if (!statSync(real).isFile())
    throw new InvalidInputError(`path ${JSON.stringify(path)} is not a file.`);
  // Callers authorise on the namespace: it must be that of the file actually read, so a link in
  // one namespace's folder cannot hand out another namespace's file (or a state file).
  const target = inside.split(sep).join("/");
  let realNamespace = namespace;
  if (target !== segments.join("/")) {
    try {
      realNamespace = checkTreePath(realRoot, target).namespace;
    } catch {
      throw new InvalidInputError(
        `path ${JSON.stringify(path)} is a symbolic link to ${target}, which is not a memory file; it is refused.`,
      );
    }
  }
  const text = await readFile(real, "utf8");
  const lines = splitLines(text.startsWith("\ufeff") ? text.slice(1) : text).map(
    (line) => line.text,
  );
  const slice = lines.slice(from - 1, from - 1 + count);
  return {
    path: segments.join("/"),
    namespace: realNamespace,
    from,
    to: from - 1 + slice.length,
    totalLines: lines.length,
    text: slice.join("\n"),
  };
}

/**
 * Checks that `path` names a memory file of the tree at `root` (a relative `.md` path, no `.`,
 * `..`, hidden or NUL segments, `MEMORY.md` or `memory/**` of the root or of a namespace
 * directory) and returns it with `/` separators and its namespace. INVALID_INPUT otherwise.
 * Symbolic links are not resolved here.
 */
export function checkTreePath(
  root: string,
  path: unknown,
): { path: string; segments: string[]; namespace: string } {
  if (typeof path !== "string" || path === "")
    throw new InvalidInputError("path is required: a file of the memory tree, e.g. MEMORY.md.");
  const segments = path.split(/[\\/]/);
  if (
    path.includes("\u0000") ||
    isAbsolute(path) ||
    /^[a-zA-Z]:/.test(path) ||
    segments.some((segment) => segment === ".." || segment === ".")
  ) {
    throw new InvalidInputError(
      `path ${JSON.stringify(path)} must be relative to the memory tree, without "." or ".." segments (e.g. memory/2026-11-24.md).`,
    );
  }
  if (!path.endsWith(".md"))
    throw new InvalidInputError(
      `path ${JSON.stringify(path)} is not a Markdown (.md) file of the memory tree.`,
    );
  if (segments[0]?.startsWith(".") || segments.some((segment) => segment.startsWith(".")))
    throw new InvalidInputError(
      `path ${JSON.stringify(path)} is a hidden file, not part of the memory.`,
    );
  return { path: segments.join("/"), segments, namespace: namespaceOfPath(root, segments) };
}

/**
 * The namespace a memory file belongs to, from its path: `MEMORY.md` and `memory/**` of the root
 * are the default namespace, `namespaces/<encoded>/...` another one. Any other file is refused.
 */
function namespaceOfPath(root: string, segments: string[]): string {
  const refuse = () =>
    new InvalidInputError(
      `path ${JSON.stringify(segments.join("/"))} is not a memory file: use MEMORY.md, memory/<file>.md, or the same under namespaces/<namespace>/.`,
    );
  if (segments[0] !== NAMESPACES_DIR) {
    if (!fileRole(segments.join("/"))) throw refuse();
    return DEFAULT_NAMESPACE;
  }
  const dir = segments[1] ?? "";
  if (!fileRole(segments.slice(2).join("/"))) throw refuse();
  let namespace = decodeNamespace(dir);
  if (namespace === undefined && isHashedNamespace(dir)) {
    try {
      namespace = readFileSync(`${root}/${NAMESPACES_DIR}/${dir}/${NAMESPACE_NAME_FILE}`, "utf8");
    } catch {}
  }
  if (namespace === undefined) throw refuse();
  return namespace;
}
