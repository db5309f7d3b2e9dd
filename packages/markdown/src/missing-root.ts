import { accessSync, constants, type Stats, statSync } from "node:fs";
import { dirname } from "node:path";

/** Why a memory tree root is not (yet) a directory, and whether the first write can create it. */
export interface MissingRoot {
  writable: boolean;
  /** What is wrong and what to do; present when `writable` is false. */
  reason?: string;
}

/** A path's stat, or undefined when nothing is there (also when a parent is a file: ENOTDIR). */
function statOf(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return undefined;
    throw error;
  }
}

/**
 * Looks at a memory tree's root without creating anything (a health check must not change the
 * disk): undefined when it is a directory; otherwise whether its nearest existing ancestor is a
 * directory this process may write in, so that the first write can create the tree.
 */
export function probeMissingRoot(root: string): MissingRoot | undefined {
  const stat = statOf(root);
  if (stat?.isDirectory()) return undefined;
  if (stat)
    return {
      writable: false,
      reason: `${root} is not a directory; point root at a directory (or a path that does not exist yet)`,
    };
  let ancestor = dirname(root);
  for (;;) {
    const found = statOf(ancestor);
    if (found) {
      if (!found.isDirectory())
        return {
          writable: false,
          reason: `cannot create ${root}: ${ancestor} is not a directory; fix the root path`,
        };
      try {
        accessSync(ancestor, constants.W_OK);
        return { writable: true };
      } catch (error) {
        return {
          writable: false,
          reason: `cannot create ${root}: ${ancestor} is not writable (${(error as NodeJS.ErrnoException).code}); create the directory or fix its permissions`,
        };
      }
    }
    const parent = dirname(ancestor);
    if (parent === ancestor) return { writable: false, reason: `cannot create ${root}` };
    ancestor = parent;
  }
}
