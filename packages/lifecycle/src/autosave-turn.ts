import { randomUUID } from "node:crypto";
import type { Category, Memory, MemoryEntry } from "@memory/api";
import { computeImportance, contentKey, shouldAutosave } from "@memory/core";
import { durableFacts } from "./durable-facts.js";

/** One conversation turn to autosave. */
export interface AutosaveTurnInput {
  userMessage: string;
  /** Optional: a turn may be saved before the reply exists. */
  assistantReply?: string;
  sessionId?: string;
  namespace?: string;
}

/** Options of {@link autosaveTurn}. */
export interface AutosaveTurnOptions {
  /** Characters of the assistant reply kept in the `daily` entry; default 100. */
  replyChars?: number;
  /** Clock for the keys and tests; default `() => new Date()`. */
  now?: () => Date;
  /**
   * Store the durable facts the user states ("we moved to Munich", "my manager is Priya") as
   * `core` entries, so conflict detection (on by default) supersedes what they change; default
   * true. See {@link durableFacts}.
   */
  promote?: boolean;
}

/** Why a part of the turn was not saved. */
export interface AutosaveSkip {
  part: "user" | "assistant";
  reason: "filtered" | "empty";
}

/** What {@link autosaveTurn} stored and skipped. */
export interface AutosaveTurnResult {
  stored: MemoryEntry[];
  skipped: AutosaveSkip[];
  /** The user's durable facts stored as `core` entries (also in `stored`). */
  promoted: MemoryEntry[];
  /** Keys of older core entries the promoted facts superseded. */
  superseded: string[];
}

export const AUTOSAVE_REPLY_CHARS = 100;

/** A unique, time-ordered key: `<category>_<iso timestamp>_<uuid>`. */
export function autosaveKey(category: Category, now: Date): string {
  return `${category}_${now.toISOString()}_${randomUUID()}`;
}

/**
 * Saves one turn: the user message whole as a `conversation` entry (what the user says is the
 * memory: `buildMemoryContext` shows it unless it is a question or says nothing), the first 100
 * characters of the assistant reply as a `daily` entry (kept for the record; the context leaves
 * autosaved replies out by default), and each durable fact the user states as a `core` entry
 * (`promote`, default on: see `durableFacts`), which runs conflict detection so a changed fact
 * supersedes the old one. Parts the autosave filter rejects (empty text, cron and heartbeat
 * lines, injected `[Memory context]` blocks...) are skipped, not stored. Keys are generated,
 * importance comes from `computeImportance`.
 */
export async function autosaveTurn(
  memory: Memory,
  turn: AutosaveTurnInput,
  options: AutosaveTurnOptions = {},
): Promise<AutosaveTurnResult> {
  const now = (options.now ?? (() => new Date()))();
  const replyChars = options.replyChars ?? AUTOSAVE_REPLY_CHARS;
  const scope = {
    ...(turn.namespace === undefined ? {} : { namespace: turn.namespace }),
    ...(turn.sessionId === undefined ? {} : { sessionId: turn.sessionId }),
  };
  const parts: { part: AutosaveSkip["part"]; category: Category; text: string | undefined }[] = [
    { part: "user", category: "conversation", text: turn.userMessage },
    {
      part: "assistant",
      category: "daily",
      // Array.from counts code points, so the cut never splits a surrogate pair.
      text:
        turn.assistantReply === undefined
          ? undefined
          : Array.from(turn.assistantReply.trim()).slice(0, replyChars).join(""),
    },
  ];
  const result: AutosaveTurnResult = { stored: [], skipped: [], promoted: [], superseded: [] };
  for (const { part, category, text } of parts) {
    if (text === undefined || text.trim() === "") {
      result.skipped.push({ part, reason: "empty" });
      continue;
    }
    if (!shouldAutosave(text)) {
      result.skipped.push({ part, reason: "filtered" });
      continue;
    }
    result.stored.push(
      await memory.store({
        key: autosaveKey(category, now),
        content: text,
        category,
        importance: computeImportance(text, category),
        ...scope,
      }),
    );
  }
  const userSaved = !result.skipped.some((skip) => skip.part === "user");
  if (userSaved && (options.promote ?? true)) {
    for (const fact of durableFacts(turn.userMessage)) {
      const stored = await memory.store({
        key: contentKey(fact),
        content: fact,
        category: "core",
        importance: computeImportance(fact, "core"),
        ...scope,
      });
      const { conflict, ...entry } = stored;
      result.stored.push(entry);
      result.promoted.push(entry);
      result.superseded.push(...(conflict?.superseded ?? []));
    }
  }
  return result;
}
