import type { MemoryEntry } from "@memory/api";
import { entryHeader, LIST_ENTRY_MAX_CHARS, RESULT_MAX_CHARS } from "@memory/tools";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { MemoryEntrySchema } from "../wire/entry.js";

/**
 * The bounds on what one tool result carries (@memory/tools: memory_get's description names
 * them). A cut content ends with a marker saying how to read on (memory_get with `offset`);
 * entries past the budget are left out with a note saying how to page (memory_list `offset`,
 * or a smaller recall `limit`).
 */
export { LIST_ENTRY_MAX_CHARS, RESULT_MAX_CHARS };

/**
 * An entry in a tool's structured result: everything but the content (which the text part
 * carries, once), the embedding and recall's explain (noise to a model).
 */
export const EntryMetadataSchema = MemoryEntrySchema.omit({
  content: true,
  embedding: true,
  explain: true,
}).extend({
  contentChars: z.number().int().describe("Length of the content, in characters."),
  contentShown: z
    .number()
    .int()
    .describe("Characters of the content in the text part (less than contentChars: it was cut)."),
});
export type EntryMetadata = z.output<typeof EntryMetadataSchema>;

export function metadataOf(entry: MemoryEntry, shown: number): EntryMetadata {
  const { content, embedding: _embedding, explain: _explain, ...rest } = entry;
  return { ...rest, contentChars: content.length, contentShown: shown } as EntryMetadata;
}

/** A result: the readable text (contents once) and the structured part (metadata). */
export function toolResult(text: string, structured: Record<string, unknown>): CallToolResult {
  return { content: [{ type: "text", text }], structuredContent: structured };
}

/** `text` cut to at most `max` characters, never between the halves of a surrogate pair. */
export function cutAt(text: string, max: number): string {
  if (text.length <= max) return text;
  const code = text.charCodeAt(max - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? max - 1 : max);
}

/** How memory_get reads an entry whole, for a marker. */
export function readOnHint(entry: MemoryEntry, offset: number): string {
  return `memory_get ${JSON.stringify({ key: entry.key, namespace: entry.namespace, offset })}`;
}

export interface EntryListing {
  /** One block per entry shown, in order. */
  lines: string[];
  /** Metadata of the entries shown. */
  entries: EntryMetadata[];
  /** Entries left out because the result reached RESULT_MAX_CHARS. */
  omitted: number;
}

/**
 * Lists entries within the result bounds: each content cut at LIST_ENTRY_MAX_CHARS (with a
 * marker naming the memory_get call that reads on), and no more entries than fit in
 * RESULT_MAX_CHARS (the caller says how to page past them).
 */
export function listEntries(
  entries: readonly MemoryEntry[],
  prefix: (index: number) => string,
): EntryListing {
  const lines: string[] = [];
  const shown: EntryMetadata[] = [];
  // Room kept for the caller's closing note (how to page past the entries left out).
  const budget = RESULT_MAX_CHARS - 300;
  let used = 0;
  for (const [index, entry] of entries.entries()) {
    const head = `${prefix(index)}${entryHeader(entry)}: `;
    const room = Math.min(LIST_ENTRY_MAX_CHARS, budget - used - head.length - 1);
    const total = entry.content.length;
    const marker = (cut: number) =>
      `… [cut at ${cut} of ${total} characters; ${readOnHint(entry, cut)} reads on]`;
    // A cut content leaves room for its marker (at its longest: the offset has total's digits).
    const contentRoom = total <= room ? total : room - marker(total).length;
    // Always show at least one entry, however long its key; stop when the next no longer fits.
    if (contentRoom < 100 && total > contentRoom && lines.length > 0) break;
    const content = cutAt(entry.content, Math.max(contentRoom, 0));
    const line = `${head}${content}${content.length < total ? marker(content.length) : ""}`;
    used += line.length + 1;
    lines.push(line);
    shown.push(metadataOf(entry, content.length));
  }
  return { lines, entries: shown, omitted: entries.length - shown.length };
}
