import { entryFile } from "../format/layout.js";
import type { MarkdownMemory } from "../markdown-memory.js";

/**
 * The daily logs of a namespace for the UTC day of `at`: `memory/<day>.md`, then the files named
 * by that day and a time (`memory/<day>-1442.md`, one per session for some agents), by name. The
 * tree is current: the caller has just read `MEMORY.md` through the memory.
 */
export function dailyLogPaths(memory: MarkdownMemory, namespace: string, at: string): string[] {
  const main = entryFile(namespace, "daily", at);
  const day = at.slice(0, 10);
  const timed = [...memory.tree.files.values()]
    .filter(
      (file) =>
        file.namespace === namespace &&
        file.path !== main &&
        file.role.loggedAt?.slice(0, 10) === day,
    )
    .map((file) => file.path)
    .sort();
  return [main, ...timed];
}
