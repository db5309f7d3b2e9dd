import type { Memory } from "@memory/api";
import { spokenLines } from "./context-entries.js";

/** Earlier messages of the session the discovery query takes in at most. */
export const HISTORY_MESSAGES = 2;
/** How far back those messages may be (ms). */
export const HISTORY_WINDOW_MS = 10 * 60 * 1000;
/** Longest discovery query (characters); the current message is always kept whole. */
export const HISTORY_MAX_CHARS = 2000;

/**
 * The discovery query of a multi-turn conversation: the current message plus up to
 * {@link HISTORY_MESSAGES} earlier user messages of the same session from the last
 * {@link HISTORY_WINDOW_MS} (autosaved `conversation` turns), so "and what about her sister?"
 * finds what the previous question was about. Older messages are dropped first to stay within
 * {@link HISTORY_MAX_CHARS}. Fails open: when the session's history cannot be read, the query is
 * the current message.
 */
export async function discoveryQuery(
  memory: Pick<Memory, "list">,
  message: string,
  session: { sessionId: string; namespace?: string; now: Date; signal?: AbortSignal },
): Promise<string> {
  let earlier: string[];
  try {
    const since = new Date(session.now.getTime() - HISTORY_WINDOW_MS).toISOString();
    const turns = await memory.list({
      ...(session.namespace === undefined ? {} : { namespace: session.namespace }),
      sessionId: session.sessionId,
      categories: ["conversation"],
      since,
      limit: HISTORY_MESSAGES + 1,
    });
    earlier = turns
      .map((turn) => spokenLines(turn.content).join(" "))
      .filter((text) => text.toLowerCase() !== message.toLowerCase())
      .slice(0, HISTORY_MESSAGES);
  } catch {
    return message; // fail open: the current message alone
  }
  // Newest first from `list`; drop the oldest until the query fits.
  const parts = [message];
  let length = message.length;
  for (const text of earlier) {
    if (length + 1 + text.length > HISTORY_MAX_CHARS) break;
    parts.push(text);
    length += 1 + text.length;
  }
  return parts.join("\n");
}
