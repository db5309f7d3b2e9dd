import { lstatSync } from "node:fs";
import { join } from "node:path";
import { ConflictError } from "@memory/api";

/** True when `path` is a symbolic link (false when nothing is there). */
export function isSymbolicLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

/**
 * The first directory on a file's path inside the tree (`namespaces`, `namespaces/a`,
 * `namespaces/a/memory`...) that is a symbolic link, or undefined. The memory reads and writes
 * no file through one: a link in one namespace's folder could lead to another namespace's.
 */
export function linkedDirectory(root: string, path: string): string | undefined {
  const directories = path.split("/").slice(0, -1);
  for (let depth = 1; depth <= directories.length; depth++) {
    const directory = directories.slice(0, depth).join("/");
    if (isSymbolicLink(join(root, directory))) return directory;
  }
  return undefined;
}

/** Refuses (CONFLICT) to write a file of the tree through a linked directory. */
export function refuseLinkedDirectory(root: string, path: string): void {
  const linked = linkedDirectory(root, path);
  if (linked !== undefined)
    throw new ConflictError(
      `${linked} is a symbolic link, so the memory will not write ${path} through it (it could land in another namespace's folder); replace the link with a directory.`,
      { details: { path } },
    );
}
