import type { MemoryEntry } from "@memory/api";
import { type Fact, kindsInText } from "@memory/core";
import { isQuestion } from "./turn-text.js";

/** The user as a question's subject: "I", "I'm", "I've" ("What sport do I do?"). */
const ASKS_ABOUT_USER = /\bI(?:['’](?:m|ve|d))?\b/u;

/**
 * A question that asks the user's kind of thing ("What sport do I do to stay fit?", "Which
 * language am I learning?"): the user's current core facts that name a thing of that kind ("I
 * switched from running to swimming", "I started Italian"), whatever their words, through the
 * fact reading's general words (`kindsInText`); and, to leave out once there is an answer, the
 * same kind said of someone else ("My colleague Marco plays football"). Undefined when the
 * question asks no kind of the user.
 */
export function kindAnswers(
  question: string,
  core: readonly MemoryEntry[],
  readingOf: (entry: MemoryEntry) => Fact,
): { answers: MemoryEntry[]; othersAnswers: (entry: MemoryEntry) => boolean } | undefined {
  if (!isQuestion(question) || !ASKS_ABOUT_USER.test(question)) return undefined;
  const asked = kindsInText(question).asked;
  if (asked.length === 0) return undefined;
  const namesKind = (entry: MemoryEntry) =>
    kindsInText(entry.content).named.some((kind) => asked.includes(kind));
  const aboutUser = (entry: MemoryEntry) => {
    const nodes = readingOf(entry).subject?.nodes ?? [];
    return nodes.length === 1 && nodes[0]!.self === true;
  };
  // The subject first: its reading is cached, the kinds are read from the words.
  const answers = core.filter((entry) => aboutUser(entry) && namesKind(entry));
  return {
    answers,
    othersAnswers: (entry) => namesKind(entry) && !aboutUser(entry),
  };
}
