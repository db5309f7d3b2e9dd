import { randomUUID } from "node:crypto";
import type { ConflictDecision, Memory, MemoryEntry } from "@memory/api";
import {
  checkConflicts,
  computeImportance,
  contentKey,
  defaultConfig,
  shouldAutosave,
} from "@memory/core";

/** One conversation turn to consolidate. */
export interface ConsolidateTurnInput {
  userMessage: string;
  /** Optional: a turn may be consolidated before the reply exists. */
  assistantReply?: string;
  sessionId?: string;
  namespace?: string;
}

/** Options of {@link consolidateTurn}. */
export interface ConsolidateTurnOptions {
  /** Importance (as a core entry, `computeImportance`) from which the message is promoted; default 0.8. */
  promoteImportance?: number;
  /** Shortest message (characters, trimmed) that is promoted; default 10. */
  promoteMinChars?: number;
  /**
   * The conflict check of a promoted entry when the memory does not run one itself (its
   * `conflict_mode` is `off`): `rules` (default: the same rules as `store`), or `off`;
   * `jaccard` and `combined` are accepted and mean `rules`. When the memory runs one on store,
   * its decision is the one reported.
   */
  conflictMode?: "off" | "rules" | "jaccard" | "combined";
  /** Threshold of the similarity fallback (`text_language = "none"` only); default 0.7. */
  conflictThreshold?: number;
  /** Clock for the daily key's date and tests; default `() => new Date()`. */
  now?: () => Date;
}

/** What {@link consolidateTurn} did. */
export interface ConsolidationReport {
  /** The `daily` entry of the turn (`daily_<date>_<uuid>`), unless the turn was filtered out. */
  daily?: MemoryEntry;
  /** The user message promoted to `core` (key derived from its content), when it qualified. */
  promoted?: MemoryEntry;
  /** The importance of the user message as a core entry (what promotion is judged on). */
  importance: number;
  /** Why the message was not promoted: too unimportant, too short, or filtered. */
  notPromoted?: "importance" | "too-short" | "filtered";
  /** Keys of older core entries the promoted one superseded. */
  superseded: string[];
  /** The conflict check of the promoted entry (its candidates and their scores). */
  conflict?: ConflictDecision;
  /** Why the turn was skipped entirely (nothing to store). */
  skipped?: "empty" | "filtered";
}

export const CONSOLIDATION_DEFAULTS = {
  promoteImportance: 0.8,
  promoteMinChars: 10,
  conflictMode: "rules",
} as const;

/** `daily_<YYYY-MM-DD>_<uuid>` (the date in UTC). */
export function dailyKey(now: Date): string {
  return `daily_${now.toISOString().slice(0, 10)}_${randomUUID()}`;
}

function dailyContent(turn: ConsolidateTurnInput): string {
  const user = turn.userMessage.trim();
  const reply = turn.assistantReply?.trim() ?? "";
  if (reply === "" || !shouldAutosave(reply)) return `User: ${user}`;
  return `User: ${user}\nAssistant: ${reply}`;
}

/**
 * Consolidates one turn without an LLM (DESIGN section 7): a `daily` entry for the turn
 * (`User: ...` and `Assistant: ...` lines, key `daily_<date>_<uuid>`), then, when the user
 * message is important enough as a core entry (`computeImportance(message, "core") >= 0.8`,
 * i.e. at least one high-signal word such as "always", "never", "must", "decision") and at least
 * 10 characters long, its promotion to `core` under a key derived from its content, after the
 * conflict check: older core entries it contradicts or updates are superseded by it. Text the
 * autosave filter rejects (cron and heartbeat lines, injected `[Memory context]` blocks) is not
 * stored. Backend failures reject.
 */
export async function consolidateTurn(
  memory: Memory,
  turn: ConsolidateTurnInput,
  options: ConsolidateTurnOptions = {},
): Promise<ConsolidationReport> {
  const now = (options.now ?? (() => new Date()))();
  const message = turn.userMessage.trim();
  const importance = computeImportance(message, "core");
  const scope = {
    ...(turn.namespace === undefined ? {} : { namespace: turn.namespace }),
    ...(turn.sessionId === undefined ? {} : { sessionId: turn.sessionId }),
  };
  if (message === "") return { importance, superseded: [], skipped: "empty" };
  if (!shouldAutosave(message))
    return { importance, superseded: [], skipped: "filtered", notPromoted: "filtered" };

  const content = dailyContent(turn);
  const report: ConsolidationReport = {
    importance,
    superseded: [],
    daily: await memory.store({
      key: dailyKey(now),
      content,
      category: "daily",
      importance: computeImportance(content, "daily"),
      ...scope,
    }),
  };

  const promoteImportance = options.promoteImportance ?? CONSOLIDATION_DEFAULTS.promoteImportance;
  const promoteMinChars = options.promoteMinChars ?? CONSOLIDATION_DEFAULTS.promoteMinChars;
  if (importance < promoteImportance) return { ...report, notPromoted: "importance" };
  if (message.length < promoteMinChars) return { ...report, notPromoted: "too-short" };

  const promoted = await memory.store({
    key: contentKey(message),
    content: message,
    category: "core",
    importance,
    ...scope,
  });
  let conflict = promoted.conflict;
  const mode = options.conflictMode ?? CONSOLIDATION_DEFAULTS.conflictMode;
  if (conflict === undefined && mode !== "off") {
    // The memory does not check conflicts on store (conflict_mode = "off"): check here.
    conflict = await checkConflicts(memory, promoted, {
      conflictMode: mode,
      conflictThreshold: options.conflictThreshold ?? defaultConfig().memory.conflict_threshold,
      conflictCategories: "core",
    });
  }
  const { conflict: _decision, ...entry } = promoted;
  return {
    ...report,
    promoted: entry,
    superseded: conflict?.superseded ?? [],
    ...(conflict === undefined ? {} : { conflict }),
  };
}
