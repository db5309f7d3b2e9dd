import type { Memory, MemoryEntry } from "@memory/api";

/** Options of {@link buildMemoryContext}. */
export interface MemoryContextOptions {
  /** Namespace to recall from; default `"default"`. */
  namespace?: string;
  /** Restrict recall to one session (core memories are never session-scoped). */
  sessionId?: string;
  /** Recalled entries at most; default 5 (the seeds' `auto_recall_limit`). */
  limit?: number;
  /**
   * Recalled entries below this relevance are left out; default 0.4 (`auto_recall_min_score`),
   * stricter than recall's own 0.3: on LoCoMo it keeps 89% of the evidence found in the top 10
   * and drops questions about another conversation 83% of the time (docs/retrieval-quality.md).
   */
  minScore?: number;
  /** Top core memories added after the recalled ones; default 3. `0` adds none. */
  coreLimit?: number;
  /** Upper bound on the length of the whole block, in characters; default 2000. */
  maxChars?: number;
  /** Upper bound on one entry's line; longer contents are cut with an ellipsis. Default 500. */
  maxEntryChars?: number;
  signal?: AbortSignal;
}

/** What {@link buildMemoryContext} returns. */
export interface MemoryContext {
  /** The `[Memory context]` block, or `""` when nothing was found. */
  text: string;
  /** The entries that made it into the block, in block order. */
  entries: MemoryEntry[];
  /** True when entries or characters were dropped to fit `maxChars`. */
  truncated: boolean;
}

export const MEMORY_CONTEXT_DEFAULTS = {
  limit: 5,
  minScore: 0.4,
  coreLimit: 3,
  maxChars: 2000,
  maxEntryChars: 500,
} as const;

/** The header line; the autosave filter skips text starting with it, so context never loops back. */
export const MEMORY_CONTEXT_HEADER = "[Memory context]";

const ELLIPSIS = "…";

function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length <= max ? flat : `${flat.slice(0, Math.max(0, max - 1))}${ELLIPSIS}`;
}

function formatLine(entry: MemoryEntry, maxEntryChars: number): string {
  return `- [${entry.category}] ${entry.key}: ${oneLine(entry.content, maxEntryChars)}`;
}

/**
 * Builds the memory context to put in front of a user message: recall for the message (limit 5,
 * minimum score 0.4 by default) plus the top core memories, de-duplicated by key, formatted as a
 * `[Memory context]` block of `- [category] key: content` lines, and cut to `maxChars`.
 *
 * Recalled entries come first because they answer this message; core entries are the standing
 * facts that fill the remaining room. Backend failures are not swallowed: they reject.
 */
export async function buildMemoryContext(
  memory: Memory,
  userMessage: string,
  options: MemoryContextOptions = {},
): Promise<MemoryContext> {
  const limit = options.limit ?? MEMORY_CONTEXT_DEFAULTS.limit;
  const minScore = options.minScore ?? MEMORY_CONTEXT_DEFAULTS.minScore;
  const coreLimit = options.coreLimit ?? MEMORY_CONTEXT_DEFAULTS.coreLimit;
  const maxChars = options.maxChars ?? MEMORY_CONTEXT_DEFAULTS.maxChars;
  const maxEntryChars = options.maxEntryChars ?? MEMORY_CONTEXT_DEFAULTS.maxEntryChars;
  const keyOptions = options.namespace === undefined ? {} : { namespace: options.namespace };

  // An empty message would recall "the most recent entries", which is noise, not context.
  const query = userMessage.trim();
  const [recalled, core] = await Promise.all([
    query === "" || limit <= 0
      ? Promise.resolve([])
      : memory.recall(query, {
          ...keyOptions,
          limit,
          minScore,
          ...(options.sessionId === undefined ? {} : { sessionId: options.sessionId }),
          ...(options.signal === undefined ? {} : { signal: options.signal }),
        }),
    coreLimit <= 0 ? Promise.resolve([]) : memory.topCore(coreLimit, keyOptions),
  ]);

  const seen = new Set<string>();
  const candidates: MemoryEntry[] = [];
  for (const entry of [...recalled, ...core]) {
    if (entry.supersededBy !== undefined || seen.has(entry.key)) continue;
    seen.add(entry.key);
    candidates.push(entry);
  }
  if (candidates.length === 0) return { text: "", entries: [], truncated: false };

  const lines = [MEMORY_CONTEXT_HEADER];
  const entries: MemoryEntry[] = [];
  let length = MEMORY_CONTEXT_HEADER.length;
  let truncated = false;
  for (const entry of candidates) {
    let line = formatLine(entry, maxEntryChars);
    const room = maxChars - length - 1; // 1 for the newline before the line
    if (line.length > room) {
      truncated = true;
      // Keep a shortened line only when it still says something; otherwise stop here.
      if (room < 40) break;
      line = `${line.slice(0, room - 1)}${ELLIPSIS}`;
    }
    lines.push(line);
    entries.push(entry);
    length += line.length + 1;
    if (truncated) break;
  }
  if (entries.length < candidates.length) truncated = true;
  if (entries.length === 0) return { text: "", entries: [], truncated };
  return { text: lines.join("\n"), entries, truncated };
}
