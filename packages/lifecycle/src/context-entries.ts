import type { MemoryEntry } from "@memory/api";
import { jaccardSimilarity } from "@memory/core";
import { isContentless, onlyAsks, REPLY_CONTENT_WORDS } from "./turn-text.js";

/** Word-set Jaccard from which two texts count as the same memory (paraphrase-free repeats). */
export const NEAR_DUPLICATE_JACCARD = 0.85;

/** The text of an entry as the user said it: speaker labels ("User: ...") left out, one line each. */
export function spokenLines(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.replace(/^\s*[\p{L}][\p{L}\p{N} _-]{0,30}:\s+/u, "").trim())
    .filter((line) => line !== "");
}

/**
 * True when the entry is the message itself (an autosaved or consolidated copy of it, e.g. the
 * question being asked): one of its lines, speaker label aside, is near-identical to it.
 */
export function echoesMessage(entry: MemoryEntry, message: string): boolean {
  return spokenLines(entry.content).some((line) => sameText(line, message));
}

/** Two texts that say the same: equal but for case, or near-identical word sets. */
export function sameText(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase() || jaccardSimilarity(a, b) >= NEAR_DUPLICATE_JACCARD;
}

/** An assistant reply saved by `autosaveTurn` (`daily_<ISO timestamp>_<uuid>`). */
export function isAutosavedReply(entry: MemoryEntry): boolean {
  return entry.category === "daily" && /^daily_\d{4}-\d{2}-\d{2}T/u.test(entry.key);
}

/** What a context leaves out by default and the option that lets it in. */
export interface TurnPolicy {
  includeConversation: boolean;
  includeReplies: boolean;
  includeQuestions: boolean;
}

/** Why a turn stays out of the context (see {@link turnExclusion}). */
export type TurnExclusion = "assistant_reply" | "conversation_turn" | "contentless" | "question";

/**
 * Why a recalled entry stays out of the context, or undefined when it may go in: autosaved
 * replies (unless `includeReplies`; even then only when they say something), raw conversation
 * turns (unless `includeConversation`), questions and contentless turns.
 */
export function turnExclusion(entry: MemoryEntry, policy: TurnPolicy): TurnExclusion | undefined {
  const reply = isAutosavedReply(entry);
  if (reply && !policy.includeReplies) return "assistant_reply";
  if (entry.category === "conversation" && !policy.includeConversation) return "conversation_turn";
  if (entry.category !== "conversation" && !reply) return undefined;
  const text = spokenLines(entry.content).join(" ");
  if (isContentless(text, reply ? REPLY_CONTENT_WORDS : 1)) return "contentless";
  if (!policy.includeQuestions && onlyAsks(text)) return "question";
  return undefined;
}

/**
 * The entry's relevance before time decay (the engine's `explain.fused`), used against the
 * context's threshold so that age orders entries but never pushes a relevant one out. A score
 * without an explanation is used as it is.
 */
export function relevanceOf(entry: MemoryEntry): number {
  return entry.explain?.fused ?? entry.score ?? 0;
}

/**
 * Whether an entry matches the message by itself: some keyword or vector relevance of its own.
 * The conversation-context boost raises the neighbours of a matching turn; a neighbour that
 * matches nothing itself ("I don't know yet.") is not context.
 */
export function matchesItself(entry: MemoryEntry): boolean {
  const explain = entry.explain;
  if (explain === undefined || explain.context === undefined) return true;
  return (explain.keywordRelevance ?? 0) > 0 || (explain.vectorRelevance ?? 0) > 0;
}

/**
 * Whether an entry says something worth remembering on its own: three content words beyond
 * function words and acknowledgements (the bar of an assistant's reply), speaker labels aside.
 */
export function carriesContent(entry: MemoryEntry): boolean {
  return !isContentless(spokenLines(entry.content).join(" "), REPLY_CONTENT_WORDS);
}

/** Fewest words an entry needs before "all its words are in another" counts. */
const HELD_WORDS = 4;

/**
 * Whether `whole` says everything `part` says: every word of `part` (four at least), speaker
 * labels aside, is in `whole`. A fact promoted from a turn ("My sister Clara works as a nurse")
 * is held whole by the turn ("My sister Clara lives in Hamburg and works as a nurse").
 */
export function holdsWhole(whole: MemoryEntry, part: MemoryEntry): boolean {
  const words = saidWords(part);
  if (words.length < HELD_WORDS) return false;
  const said = new Set(saidWords(whole));
  return words.every((word) => said.has(word));
}

function saidWords(entry: MemoryEntry): string[] {
  return (
    spokenLines(entry.content)
      .join(" ")
      .toLowerCase()
      .match(/[\p{L}\p{N}'’]+/gu) ?? []
  );
}
