import type { Memory, MemoryEntry, MemorySettings } from "@memory/api";
import { jaccardSimilarity } from "@memory/core";

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
  /**
   * Recall for the message at all (`auto_recall`); default true. False leaves only the standing
   * core memories.
   */
  recall?: boolean;
  /**
   * Top core memories added after the recalled ones. Default: 3 for an empty message (the
   * start of a session: standing facts are all there is), 0 otherwise, so that a message gets
   * only what recall finds relevant to it (a nonsense message gets nothing). Given, it applies
   * to every message. `0` adds none.
   */
  coreLimit?: number;
  /**
   * Include raw `conversation` turns (autosaved user messages) among the recalled entries;
   * default false: they repeat what was said, often the very question being asked, and crowd
   * out the facts that answer it.
   */
  includeConversation?: boolean;
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
  recall: true,
  limit: 5,
  minScore: 0.4,
  coreLimit: 3,
  includeConversation: false,
  maxChars: 2000,
  maxEntryChars: 500,
} as const;

/**
 * The context options that memory.toml sets: `auto_recall` (recall at all), `auto_recall_limit`
 * and `auto_recall_min_score`. Callers (the server's `/v1/context`) pass them under their own.
 */
export function memoryContextOptionsFromConfig(
  memory: Pick<MemorySettings, "auto_recall" | "auto_recall_limit" | "auto_recall_min_score">,
): Pick<MemoryContextOptions, "recall" | "limit" | "minScore"> {
  return {
    recall: memory.auto_recall,
    limit: memory.auto_recall_limit,
    minScore: memory.auto_recall_min_score,
  };
}

/** Word-set Jaccard from which two texts count as the same memory (paraphrase-free repeats). */
export const NEAR_DUPLICATE_JACCARD = 0.85;

/** The header line; the autosave filter skips text starting with it, so context never loops back. */
export const MEMORY_CONTEXT_HEADER = "[Memory context]";

const ELLIPSIS = "…";

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

function formatLine(entry: MemoryEntry, maxEntryChars: number): string {
  return `- [${entry.category}] ${entryLabel(entry)}: ${oneLine(entry.content, maxEntryChars)}`;
}

/** The text of an entry as the user said it: speaker labels ("User: ...") left out, one line each. */
function spokenLines(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.replace(/^\s*[\p{L}][\p{L}\p{N} _-]{0,30}:\s+/u, "").trim())
    .filter((line) => line !== "");
}

/**
 * True when the entry is the message itself (an autosaved or consolidated copy of it, e.g. the
 * question being asked): one of its lines, speaker label aside, is near-identical to it.
 */
function echoesMessage(entry: MemoryEntry, message: string): boolean {
  return spokenLines(entry.content).some(
    (line) =>
      line.toLowerCase() === message.toLowerCase() ||
      jaccardSimilarity(line, message) >= NEAR_DUPLICATE_JACCARD,
  );
}

/**
 * Builds the memory context to put in front of a user message: recall for the message (limit 5,
 * minimum relevance 0.4 by default), plus the top core memories when the message is empty (or
 * `coreLimit` is given), formatted as a
 * `[Memory context]` block of `- [category] key: content` lines, and cut to `maxChars`.
 *
 * Left out: superseded entries and entries that repeat one (a daily log of a fact that has
 * changed since), raw `conversation` turns (unless `includeConversation`), entries that repeat
 * the message itself (the autosaved question would otherwise be its own best match), and
 * entries near-identical to one already in the block. Recalled entries come first because they
 * answer this message; core entries fill the remaining room. Backend failures are not
 * swallowed: they reject.
 */
export async function buildMemoryContext(
  memory: Memory,
  userMessage: string,
  options: MemoryContextOptions = {},
): Promise<MemoryContext> {
  const recallEnabled = options.recall ?? MEMORY_CONTEXT_DEFAULTS.recall;
  const limit = options.limit ?? MEMORY_CONTEXT_DEFAULTS.limit;
  const minScore = options.minScore ?? MEMORY_CONTEXT_DEFAULTS.minScore;
  const query = userMessage.trim();
  const coreLimit = options.coreLimit ?? (query === "" ? MEMORY_CONTEXT_DEFAULTS.coreLimit : 0);
  const includeConversation =
    options.includeConversation ?? MEMORY_CONTEXT_DEFAULTS.includeConversation;
  const maxChars = options.maxChars ?? MEMORY_CONTEXT_DEFAULTS.maxChars;
  const maxEntryChars = options.maxEntryChars ?? MEMORY_CONTEXT_DEFAULTS.maxEntryChars;
  const keyOptions = options.namespace === undefined ? {} : { namespace: options.namespace };

  // An empty message would recall "the most recent entries", which is noise, not context.
  // Entries left out after recall (conversation turns, echoes of the message) must not leave
  // the block short: ask for more, keep `limit`.
  const [recalled, core] = await Promise.all([
    query === "" || limit <= 0 || !recallEnabled
      ? Promise.resolve([])
      : memory.recall(query, {
          ...keyOptions,
          limit: limit * 3,
          minScore,
          // Superseded entries come back only to recognise copies of their stale text.
          includeSuperseded: true,
          ...(options.sessionId === undefined ? {} : { sessionId: options.sessionId }),
          ...(options.signal === undefined ? {} : { signal: options.signal }),
        }),
    coreLimit <= 0 ? Promise.resolve([]) : memory.topCore(coreLimit * 3, keyOptions),
  ]);

  const seen = new Set<string>();
  const candidates: MemoryEntry[] = [];
  // A daily log or an autosaved turn that repeats a superseded fact is as stale as the fact.
  const stale = recalled.filter((entry) => entry.supersededBy !== undefined);
  const add = (entry: MemoryEntry): boolean => {
    if (entry.supersededBy !== undefined || seen.has(entry.key)) return false;
    if (query !== "" && echoesMessage(entry, query)) return false;
    if (stale.some((old) => echoesMessage(entry, old.content.trim()))) return false;
    // Near-identical to an entry already kept, line by line ("User: <fact>" repeats <fact>).
    const lines = spokenLines(entry.content);
    if (candidates.some((kept) => lines.some((line) => echoesMessage(kept, line)))) return false;
    seen.add(entry.key);
    candidates.push(entry);
    return true;
  };
  let recalledCount = 0;
  for (const entry of recalled) {
    if (recalledCount >= limit) break;
    if (!includeConversation && entry.category === "conversation") continue;
    if (add(entry)) recalledCount++;
  }
  let coreCount = 0;
  for (const entry of core) {
    if (coreCount >= coreLimit) break;
    if (add(entry)) coreCount++;
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
