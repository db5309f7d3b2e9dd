import type { Dirent } from "node:fs";
import { readdir } from "node:fs/promises";
import path from "node:path";
import type { CollectionProblem } from "./collection-types.js";

/**
 * Folder names a walk never enters (besides every name starting with "."): private notes,
 * vendored code, build output and the tool folders of note apps and sync tools.
 */
export const SKIPPED_SEGMENTS: ReadonlySet<string> = new Set([
  "_PRIVATE",
  "node_modules",
  "vendor",
  "dist",
  "build",
  ".git",
  ".obsidian",
  ".logseq",
  ".foam",
  ".dendron",
  ".trash",
  ".stversions",
  ".cache",
]);

/** True when a path segment is skipped (a dot name or one of SKIPPED_SEGMENTS). */
export function isSkippedSegment(name: string): boolean {
  return name.startsWith(".") || SKIPPED_SEGMENTS.has(name);
}

/** What a walk yields: a note (its path relative to the root, `/` separators) or a problem. */
export type WalkItem = { note: string } | { problem: CollectionProblem };

function reason(error: unknown): { code: CollectionProblem["code"]; message: string } {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === "EACCES" || code === "EPERM")
    return { code: "UNREADABLE", message: "permission denied (check the folder's permissions)" };
  return { code: "UNREADABLE", message: (error as Error).message };
}

/**
 * The notes under `root` that `pattern` matches, in name order. Symbolic links are reported and
 * never followed (a link loop or a link out of the folder can neither hang nor escape the walk);
 * skipped segments are not entered at all.
 */
export async function* walkNotes(root: string, pattern: RegExp): AsyncGenerator<WalkItem> {
  yield* walkFolder(root, "", pattern);
}

async function* walkFolder(
  root: string,
  relative: string,
  pattern: RegExp,
): AsyncGenerator<WalkItem> {
  let entries: Dirent[];
  try {
    entries = await readdir(path.join(root, relative), { withFileTypes: true });
  } catch (error) {
    yield { problem: { path: relative || ".", ...reason(error) } };
    return;
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    if (isSkippedSegment(entry.name)) continue;
    const child = relative ? `${relative}/${entry.name}` : entry.name;
    if (entry.isSymbolicLink()) {
      yield {
        problem: {
          path: child,
          code: "SYMLINK",
          message:
            "a symbolic link: never followed (add the folder it points to as a collection of its own)",
        },
      };
    } else if (entry.isDirectory()) yield* walkFolder(root, child, pattern);
    else if (entry.isFile() && pattern.test(child)) yield { note: child };
  }
}
