import type { MemoryEntry } from "@memory/api";
import { answeringEntries, readingOf } from "./context-answers.js";
import { kindAnswers } from "./context-kinds.js";
import { readQuestion } from "./question-reading.js";

/** The stored facts that answer a message, and a test for the same said of someone else. */
export interface QuestionAnswers {
  answers: MemoryEntry[];
  othersAnswers: (entry: MemoryEntry) => boolean;
}

/**
 * The questions a message asks, one per clause: "Where do I work and what is my role?" asks
 * "Where do I work" and "what is my role".
 */
export function questionClauses(message: string): string[] {
  return message
    .split(/\s*(?:,\s*)?\band\s+(?=(?:who|whom|whose|what|which|when|where|why|how)\b)/iu)
    .map((clause) => clause.trim())
    .filter((clause) => clause !== "");
}

/**
 * The current core facts that answer a message's questions, whatever their words: each clause
 * read as a fact (`readQuestion`: the facts of its subject and attribute) and a question for
 * the user's kind of thing (`kindAnswers`: "What sport do I do?"). Answers in clause order,
 * each once; an entry is someone else's answer when any reading says so.
 */
export function questionAnswers(
  memory: object,
  message: string,
  current: readonly MemoryEntry[],
): QuestionAnswers {
  const found: QuestionAnswers[] = [];
  for (const clause of questionClauses(message)) {
    const reading = readQuestion(clause);
    if (reading !== undefined) found.push(answeringEntries(memory, reading, current));
  }
  // "What sport do I do?": the user's facts of that kind answer it too.
  const byKind = kindAnswers(message, current, (entry) => readingOf(memory, entry));
  if (byKind !== undefined) found.push(byKind);
  const answers: MemoryEntry[] = [];
  for (const { answers: some } of found)
    for (const entry of some) if (!answers.includes(entry)) answers.push(entry);
  return {
    answers,
    othersAnswers: (entry) => found.some(({ othersAnswers }) => othersAnswers(entry)),
  };
}
