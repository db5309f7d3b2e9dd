import type { Memory } from "@memory/api";
import { isQuestion } from "./turn-text.js";

/** Capitalised words that name no one: the pronoun, months, weekdays and titles. */
const NOT_NAMES = new Set(
  (
    "i i'm i've i'd i'll january february march april may june july august september october " +
    "november december monday tuesday wednesday thursday friday saturday sunday mon tue wed thu " +
    "fri sat sun jan feb mar apr jun jul aug sep sept oct nov dec mr mrs ms dr prof sir madam " +
    "christmas easter"
  ).split(" "),
);

/**
 * The names a question asks about: capitalised words (or acronyms) that do not open a
 * sentence, possessives trimmed ("Maria's" -> "Maria"); months, weekdays, titles and "I" are no
 * names. "When did Maria meet Jean?" names Maria and Jean; "Where do I live?" names no one.
 */
export function namesAskedAbout(question: string): string[] {
  const names = new Set<string>();
  for (const sentence of question.split(/(?<=[.!?])\s+/u)) {
    const words = sentence.match(/[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu) ?? [];
    for (const word of words.slice(1)) {
      if (!/^\p{Lu}/u.test(word)) continue;
      const name = word.replace(/['’]s?$/u, "");
      if (name.length < 2 || NOT_NAMES.has(name.toLowerCase())) continue;
      names.add(name);
    }
  }
  return [...names];
}

/**
 * Who a question asks about, as far as the store knows: `"unknown"` when it names at least one
 * name and no entry of the namespace holds any of them, `"known"` when the store holds one of
 * its names, `"none"` when it names no one (or is not a question). Asked of the keyword index,
 * one term each, not of the substring fallback.
 *
 * Nothing the store holds can answer "What did John do last weekend?" when it never heard of
 * John, however many of its other words an entry shares; and "What did Maria paint?" is about
 * someone the memory knows, so its best matches are worth showing even when the question's
 * framing words ("paint", "recently") match weakly. Statements are never judged: "I met Dana at
 * the beach" may well bring up the beach.
 */
export type QuestionSubject = "unknown" | "known" | "none";

export async function questionSubject(
  memory: Pick<Memory, "recall">,
  message: string,
  scope: { namespace?: string; signal?: AbortSignal },
): Promise<QuestionSubject> {
  if (!isQuestion(message)) return "none";
  const names = namesAskedAbout(message);
  if (names.length === 0) return "none";
  const known = await Promise.all(
    names.map(async (name) => {
      const found = await memory.recall(name, {
        ...scope,
        mode: "bm25",
        track: false,
        // A few: an entry raised only by its session's context may rank above the ones that
        // hold the name.
        limit: 5,
        minScore: 0,
        includeSuperseded: true,
      });
      return found.some((entry) => (entry.explain?.keywordScore ?? 0) > 0);
    }),
  );
  return known.some(Boolean) ? "known" : "unknown";
}
