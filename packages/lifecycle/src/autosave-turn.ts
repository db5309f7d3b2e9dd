import { randomUUID } from "node:crypto";
import type { Category, Memory, MemoryEntry } from "@memory/api";
import { computeImportance, shouldAutosave } from "@memory/core";

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
}

export const AUTOSAVE_REPLY_CHARS = 100;

/** A unique, time-ordered key: `<category>_<iso timestamp>_<uuid>`. */
export function autosaveKey(category: Category, now: Date): string {
  return `${category}_${now.toISOString()}_${randomUUID()}`;
}

/**
 * Saves one turn: the user message as a `conversation` entry and the first 100 characters of
 * the assistant reply as a `daily` entry. Parts the autosave filter rejects (empty text, cron
 * and heartbeat lines, injected `[Memory context]` blocks...) are skipped, not stored. Keys are
 * generated, importance comes from `computeImportance`.
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
  const result: AutosaveTurnResult = { stored: [], skipped: [] };
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
  return result;
}
