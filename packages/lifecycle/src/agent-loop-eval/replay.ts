/**
 * Replays a conversation through the agent loop that packages/lifecycle/README.md recommends:
 * before each user message `buildMemoryContext(memory, message, { namespace, sessionId })`, after each
 * exchange `autosaveTurn(memory, { userMessage, assistantReply, sessionId, namespace })`.
 *
 * Messages pair up as they come: a user message with the assistant message right after it. A
 * session the assistant opens (LoCoMo's speaker B speaks first) saves that message as a turn
 * with an empty user message (autosave stores the reply alone); two user messages in a row save
 * the first without a reply.
 */
import type { Memory } from "@memory/api";
import { autosaveTurn } from "../autosave-turn.js";
import { buildMemoryContext } from "../memory-context.js";
import { benchNow, type ClockMode, setClock } from "./clock.js";
import type { ContextSettings, LoopConversation, LoopMessage } from "./loop-session.js";
import { EntryOrigins } from "./origins.js";

/** What the contexts built during the replay looked like (before each user message). */
export interface LoopContextStats {
  contexts: number;
  nonEmpty: number;
  entries: number;
  characters: number;
}

export interface Replayed {
  /** Stored key -> the message it was saved from (origins.ts). */
  origins: EntryOrigins;
  loop: LoopContextStats;
}

async function saveExchange(
  memory: Memory,
  conversation: LoopConversation,
  sessionId: string,
  user: LoopMessage | undefined,
  reply: LoopMessage | undefined,
  origins: EntryOrigins,
): Promise<void> {
  const { stored } = await autosaveTurn(
    memory,
    {
      userMessage: user?.text ?? "",
      ...(reply ? { assistantReply: reply.text } : {}),
      sessionId,
      namespace: conversation.id,
    },
    { now: () => new Date(benchNow()) },
  );
  for (const message of [user, reply]) if (message) origins.noteMessage(message);
  for (const entry of stored) {
    // Today autosaveTurn stores the user message as `conversation` and the reply as `daily`;
    // the role is read from the content so that a change of categories cannot swap them.
    const from = reply && isFrom(entry.content, reply) ? reply : user;
    if (from) origins.noteStored(entry.key, from);
  }
}

/** True when an entry's content is (a prefix of) the message's text, labels aside. */
function isFrom(content: string, message: LoopMessage): boolean {
  const text = content.replace(/^\s*(user|assistant)\s*:\s*/i, "").trim();
  return text !== "" && message.text.trim().startsWith(text);
}

export async function replayConversation(
  memory: Memory,
  conversation: LoopConversation,
  clock: ClockMode,
  settings: ContextSettings = {},
): Promise<Replayed> {
  const origins = new EntryOrigins();
  const loop: LoopContextStats = { contexts: 0, nonEmpty: 0, entries: 0, characters: 0 };
  for (const session of conversation.sessions) {
    setClock(clock, session.date);
    let pendingUser: LoopMessage | undefined;
    for (const message of session.messages) {
      if (message.role === "user") {
        if (pendingUser) {
          await saveExchange(memory, conversation, session.id, pendingUser, undefined, origins);
        }
        const context = await buildMemoryContext(memory, message.text, {
          ...settings,
          namespace: conversation.id,
          sessionId: session.id,
        });
        loop.contexts++;
        if (context.entries.length > 0) loop.nonEmpty++;
        loop.entries += context.entries.length;
        loop.characters += context.text.length;
        pendingUser = message;
      } else {
        await saveExchange(memory, conversation, session.id, pendingUser, message, origins);
        pendingUser = undefined;
      }
    }
    if (pendingUser) {
      await saveExchange(memory, conversation, session.id, pendingUser, undefined, origins);
    }
  }
  setClock(clock, conversation.askedAt);
  return { origins, loop };
}
