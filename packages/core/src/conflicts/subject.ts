import { isStopWord } from "../algorithms/stop-words.js";

/** Words that refer to the user (or the user's team): "I", "my", "we", "the user". */
const SELF_WORDS = new Set(["i", "me", "my", "mine", "we", "us", "our", "ours", "user", "users"]);

/** Stands for the user in a subject. */
export const SELF_SUBJECT = "@user";

/**
 * Words that start a predicate: auxiliaries, modals, negations and the adverbs that come
 * between a subject and its verb ("The user now works...", "The team no longer uses...").
 */
const PREDICATE_WORDS = new Set([
  "is",
  "are",
  "was",
  "were",
  "be",
  "been",
  "am",
  "has",
  "have",
  "had",
  "do",
  "does",
  "did",
  "can",
  "cannot",
  "could",
  "will",
  "would",
  "should",
  "shall",
  "must",
  "may",
  "might",
  "not",
  "no",
  "never",
  "always",
  "now",
  "currently",
  "still",
  "just",
  "also",
  "usually",
  "often",
  "sometimes",
  "really",
  "recently",
  "finally",
]);

/** Longest subject phrase looked at; past it the subject is unknown. */
const MAX_SUBJECT_WORDS = 6;

/**
 * The words of a text's leading subject phrase ("The user's sister Maria lives in Madrid" ->
 * `@user sister maria`), or undefined when no predicate start was found in the first few words.
 * The phrase ends at the first auxiliary, modal, negation or frequency adverb, or at the first
 * lower-case word ending in -s or -ed after the first word (a verb: "lives", "moved"). Words
 * for the user become `@user`; determiners and other stop words are left out.
 */
export function textSubject(text: string): string[] | undefined {
  const words = new Set<string>();
  let index = 0;
  for (const [raw] of text.matchAll(/[\p{L}\p{N}]+(?:['’][\p{L}]+)*/gu)) {
    if (index++ >= MAX_SUBJECT_WORDS) return undefined;
    const lower = raw.toLowerCase().replace(/['’]s$/u, "");
    if (PREDICATE_WORDS.has(lower) || /n['’]t$/iu.test(raw)) return [...words];
    if (SELF_WORDS.has(lower)) {
      words.add(SELF_SUBJECT);
      continue;
    }
    const capitalized = /^\p{Lu}/u.test(raw);
    if (index > 1 && !capitalized && /\p{L}(?:[^s]s|ed)$/u.test(lower)) return [...words];
    if (isStopWord(lower)) continue;
    words.add(lower);
  }
  return [...words];
}

/**
 * Why two texts are about different subjects, or undefined when they may be about the same one:
 * different when both subjects are known and neither one's words contain the other's ("Alice
 * moved to Paris" / "Bob lives in Berlin", "The user's car..." / "The user's bike...", "The
 * user..." / "Bob..."). A subject that only adds words to the other ("The user's manager" /
 * "The user's current manager") is the same.
 */
export function differentSubjects(older: string, newer: string): string | undefined {
  const a = textSubject(older);
  const b = textSubject(newer);
  if (a === undefined || b === undefined || a.length === 0 || b.length === 0) return undefined;
  const aInB = a.every((word) => b.includes(word));
  const bInA = b.every((word) => a.includes(word));
  return aInB || bInA ? undefined : `different subjects (${a.join(" ")} / ${b.join(" ")})`;
}
