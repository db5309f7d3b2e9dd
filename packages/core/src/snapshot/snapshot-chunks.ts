import type { EntryFilter, ExportFilter, Memory } from "@memory/api";
import {
  formatSnapshotEntry,
  formatSnapshotHeader,
  formatSnapshotNamespace,
  type SnapshotHeaderOptions,
} from "./format.js";

export interface SnapshotSourceOptions extends SnapshotHeaderOptions {
  /** Only these namespaces (each once, in this order); default every namespace, sorted. */
  namespaces?: readonly string[];
  /** Further filters (session, time bounds, superseded); the category is always `core`. */
  filter?: Omit<EntryFilter, "namespace" | "categories">;
}

/** What `writeSnapshotText` wrote. */
export interface SnapshotWriteSummary {
  entries: number;
  namespaces: string[];
}

/**
 * Streams the snapshot of a store's core entries to `write`, without holding the entries in
 * memory. Superseded entries are included unless `filter.includeSuperseded` is false: they are
 * core entries, and their `supersededBy` keeps the audit trail.
 */
export async function writeSnapshotText(
  memory: Memory,
  write: (chunk: string) => void | Promise<void>,
  options: SnapshotSourceOptions = {},
): Promise<SnapshotWriteSummary> {
  const filter: ExportFilter = {
    includeSuperseded: true,
    ...options.filter,
    categories: ["core"],
  };
  delete filter.withEmbeddings;
  const namespaces =
    options.namespaces !== undefined
      ? [...new Set(options.namespaces)]
      : await coreNamespaces(memory, filter);
  await write(formatSnapshotHeader(options));
  let entries = 0;
  const written: string[] = [];
  // Export streams oldest first across namespaces, so one namespace's entries are not
  // contiguous; a pass per namespace keeps each under one heading without buffering entries.
  for (const namespace of namespaces) {
    let first = true;
    for await (const entry of memory.export({ ...filter, namespace })) {
      if (first) {
        await write(formatSnapshotNamespace(namespace));
        written.push(namespace);
        first = false;
      }
      await write(formatSnapshotEntry(entry));
      entries += 1;
    }
  }
  return { entries, namespaces: written };
}

async function coreNamespaces(memory: Memory, filter: ExportFilter): Promise<string[]> {
  const seen = new Set<string>();
  for await (const entry of memory.export(filter)) seen.add(entry.namespace);
  // Code-unit order: the same on every platform and locale.
  return [...seen].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}
