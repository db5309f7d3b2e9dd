import type { MemoryEntry } from "@memory/api";

/** A tool result's entry: without its embedding, which is noise to a model. */
export type CompactEntry = Omit<MemoryEntry, "embedding">;

export function compactEntry(entry: MemoryEntry): CompactEntry {
  const { embedding: _embedding, ...rest } = entry;
  return rest;
}

/** The first `size` characters of a long content, cut at a word when one is near the end. */
export function snippetOf(content: string, size = 700): string {
  if (content.length <= size) return content;
  const cut = content.slice(0, size);
  const space = cut.lastIndexOf(" ");
  return `${space > size * 0.6 ? cut.slice(0, space) : cut}…`;
}

/**
 * An entry's header as the model reads it: `[category] key (score 0.812) [superseded by k]`,
 * and for file-backed results (Markdown files, a collection's notes) where they are,
 * `(path:start-end)` and the note's title when it has one, for memory_get and for citing.
 */
export function entryHeader(
  entry: Pick<MemoryEntry, "category" | "key" | "score" | "supersededBy" | "source">,
): string {
  const score = entry.score === undefined ? "" : ` (score ${entry.score.toFixed(3)})`;
  const superseded = entry.supersededBy ? ` [superseded by ${entry.supersededBy}]` : "";
  const title = entry.source?.title ? ` ${JSON.stringify(entry.source.title)}` : "";
  const source = entry.source
    ? ` (${entry.source.path}:${entry.source.startLine}-${entry.source.endLine}${title})`
    : "";
  return `[${entry.category}] ${entry.key}${score}${superseded}${source}`;
}

/** One entry as the model reads it: its header, then the content (a snippet of a file's section). */
export function entryLine(entry: CompactEntry): string {
  return `${entryHeader(entry)}: ${entry.source ? snippetOf(entry.content) : entry.content}`;
}

/** The object without its undefined fields (the library treats a present `undefined` as set). */
export function definedFields<T extends Record<string, unknown>>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
