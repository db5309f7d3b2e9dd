import type { MemoryEntry } from "@memory/api";

/** The header line; the autosave filter skips text starting with it, so context never loops back. */
export const MEMORY_CONTEXT_HEADER = "[Memory context]";

const ELLIPSIS = "…";

/**
 * Block order by source, the way the seeds inject memory: standing facts first, then notes
 * (daily logs, files, other categories), then what the user said in conversation.
 */
function sourceRank(entry: MemoryEntry): number {
  if (entry.category === "core") return 0;
  if (entry.category === "conversation") return 2;
  return 1;
}

function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length <= max ? flat : `${flat.slice(0, Math.max(0, max - 1))}${ELLIPSIS}`;
}

/** What a line names its entry by: its key, or for a collection's note its file, lines and title. */
function entryLabel(entry: MemoryEntry): string {
  const source = entry.source;
  if (!source?.collection) return entry.key;
  const title = source.title ? ` "${source.title}"` : "";
  return `${source.path}:${source.startLine}-${source.endLine}${title}`;
}

/**
 * `- [category YYYY-MM-DD] label: content`, with the date of the entry's last update; an entry
 * that contradicts others (`conflict_policy = "link"`) says which: `label (contradicts "old")`.
 */
function formatLine(entry: MemoryEntry, maxEntryChars: number): string {
  const date = entry.updatedAt.slice(0, 10);
  const contradicts = entry.explain?.contradicts ?? [];
  const note =
    contradicts.length > 0
      ? ` (contradicts ${contradicts.map((key) => JSON.stringify(key)).join(", ")})`
      : "";
  return `- [${entry.category} ${date}] ${entryLabel(entry)}${note}: ${oneLine(entry.content, maxEntryChars)}`;
}

/**
 * The newer side of a contradiction is read first: an entry that contradicts another one of the
 * block moves just above it, whatever their groups (the recall rule, kept through the block's
 * own order).
 */
function newerFirst(ordered: MemoryEntry[]): MemoryEntry[] {
  const result = [...ordered];
  for (const entry of ordered) {
    const contradicts = entry.explain?.contradicts;
    if (!contradicts?.length) continue;
    const at = result.indexOf(entry);
    const older = result.findIndex((other) => contradicts.includes(other.key));
    if (older < 0 || older > at) continue;
    result.splice(at, 1);
    result.splice(older, 0, entry);
  }
  return result;
}

/**
 * The `[Memory context]` block of the chosen entries, grouped by source (stable within a group:
 * the order they were chosen in; the newer side of a contradiction first), cut to `maxChars` (a shortened last line only when it still
 * says something).
 */
export function formatContext(
  chosen: readonly MemoryEntry[],
  limits: { maxChars: number; maxEntryChars: number },
): { text: string; entries: MemoryEntry[]; truncated: boolean } {
  if (chosen.length === 0) return { text: "", entries: [], truncated: false };
  const ordered = newerFirst(
    chosen
      .map((entry, index) => ({ entry, index }))
      .sort((a, b) => sourceRank(a.entry) - sourceRank(b.entry) || a.index - b.index)
      .map(({ entry }) => entry),
  );
  const lines = [MEMORY_CONTEXT_HEADER];
  const entries: MemoryEntry[] = [];
  let length = MEMORY_CONTEXT_HEADER.length;
  let truncated = false;
  for (const entry of ordered) {
    let line = formatLine(entry, limits.maxEntryChars);
    const room = limits.maxChars - length - 1; // 1 for the newline before the line
    if (line.length > room) {
      truncated = true;
      if (room < 40) break;
      line = `${line.slice(0, room - 1)}${ELLIPSIS}`;
    }
    lines.push(line);
    entries.push(entry);
    length += line.length + 1;
    if (truncated) break;
  }
  if (entries.length < ordered.length) truncated = true;
  if (entries.length === 0) return { text: "", entries: [], truncated };
  return { text: lines.join("\n"), entries, truncated };
}
