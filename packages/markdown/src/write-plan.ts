import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { MemoryEntry } from "@memory/api";
import { entryMetadata, formatEntryLine } from "./format/entry-line.js";
import {
  dateOf,
  entryFile,
  fileRole,
  fileTitle,
  isHashedNamespace,
  MEMORY_DIR,
  NAMESPACE_NAME_FILE,
  NAMESPACES_DIR,
} from "./format/layout.js";
import { emptyEdit, type FileEdit, type MarkdownTree, type TreeRow } from "./markdown-tree.js";

/** The desired final state of some entries: written (upserted) or removed, then materialized as file edits. */
export class WritePlan {
  readonly puts = new Map<string, MemoryEntry>();
  readonly removes = new Map<string, TreeRow>();
}

/**
 * Turns the desired state of some entries into edits of files: a new key (or one whose category
 * moved it to another file) is appended, an existing one replaced where it is, removed entries
 * (and duplicate lines of written keys) deleted.
 */
export function materialize(
  tree: MarkdownTree,
  write: WritePlan,
): { edits: Map<string, FileEdit>; titles: Map<string, string> } {
  const edits = new Map<string, FileEdit>();
  const titles = new Map<string, string>();
  const edit = (path: string) => {
    let found = edits.get(path);
    if (!found) {
      found = emptyEdit();
      edits.set(path, found);
    }
    return found;
  };
  const removeRow = (row: TreeRow) => {
    edit(row.source.path).remove.add(row.source.startLine);
    for (const duplicate of row.duplicates) edit(duplicate.path).remove.add(duplicate.startLine);
  };
  for (const row of write.removes.values()) removeRow(row);
  for (const entry of write.puts.values()) {
    const previous = tree.entries(entry.namespace).get(entry.key);
    const target = entryFile(entry.namespace, entry.category, entry.createdAt);
    const line = formatEntryLine({
      key: entry.key,
      content: entry.content,
      conversation: entry.category === "conversation",
      metadata: entryMetadata(entry),
    });
    if (previous && (previous.source.path === target || sameDailyLog(tree, previous, target))) {
      edit(previous.source.path).replace.set(previous.source.startLine, line);
      for (const duplicate of previous.duplicates)
        edit(duplicate.path).remove.add(duplicate.startLine);
    } else {
      // A new key, or one that moves file (its category changed): append, then drop the old line.
      edit(target).append.push(line);
      if (!titles.has(target)) titles.set(target, newFileTitle(tree.root, target, entry.namespace));
      if (previous) removeRow(previous);
    }
  }
  for (const path of edits.keys())
    if (!titles.has(path)) titles.set(path, existingTitle(tree, path));
  return { edits, titles };
}

/**
 * True when an entry's line is in another log of the day its target daily file is for (a
 * time-named log, `memory/2026-03-28-1442.md`): an update stays in that file.
 */
function sameDailyLog(tree: MarkdownTree, previous: TreeRow, target: string): boolean {
  const day = tree.files.get(previous.source.path)?.role.loggedAt;
  const targetDay = fileRole(target.slice(target.indexOf(`${MEMORY_DIR}/`)))?.loggedAt;
  return day !== undefined && targetDay !== undefined && dateOf(day) === dateOf(targetDay);
}

/** The title of a file about to be created (and, for a hashed namespace, its `.namespace` file). */
function newFileTitle(root: string, path: string, namespace: string): string {
  const prefix = path.startsWith(`${NAMESPACES_DIR}/`) ? path.split("/").slice(0, 2).join("/") : "";
  const dir = prefix.split("/")[1];
  if (dir !== undefined && isHashedNamespace(dir)) {
    // A namespace too long to encode: its name goes in a file beside its entries.
    mkdirSync(join(root, prefix), { recursive: true });
    writeFileSync(join(root, prefix, NAMESPACE_NAME_FILE), namespace);
  }
  return fileTitle(prefix === "" ? path : path.slice(prefix.length + 1), namespace);
}

function existingTitle(tree: MarkdownTree, path: string): string {
  const file = tree.files.get(path);
  return file ? fileTitle(file.inner, file.namespace) : "";
}
