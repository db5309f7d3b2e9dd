import { ADVERBS, isCommonVerb, NEGATIONS, VALUE_NOISE } from "./fact-lexicon.js";
import { PREPOSITIONS } from "./fact-parts.js";
import { type FactWord, isIrregularVerb } from "./fact-words.js";

/** Word classes and small readings of a predicate (read-predicate.ts, read-copula.ts). */

// -ing words after "is" that describe rather than act ("is outgoing", "is interesting").
export const ING_ADJECTIVES = new Set([
  "amazing",
  "interesting",
  "boring",
  "outgoing",
  "willing",
  "caring",
  "loving",
  "charming",
  "easygoing",
  "exciting",
  "annoying",
  "missing",
  "pending",
  "ongoing",
  "upcoming",
  "being",
]);

export function isProgressive(lower: string): boolean {
  return /^[a-z]{2,}ing$/u.test(lower) && lower.length > 5 && !ING_ADJECTIVES.has(lower);
}

const IRREGULAR_PARTICIPLES = new Set([
  "held",
  "paid",
  "built",
  "led",
  "run",
  "made",
  "kept",
  "taught",
  "given",
  "written",
  "sold",
  "done",
  "known",
  "grown",
  "chosen",
  "driven",
  "shown",
  "sent",
  "brought",
  "bought",
  "hosted",
]);

/** A past participle ("watered", "held"); "-ed" words of four letters or fewer are not ("red", "bed"). */
export function isParticiple(lower: string): boolean {
  return IRREGULAR_PARTICIPLES.has(lower) || (/ed$/u.test(lower) && lower.length > 4);
}

/** Verbs of intention, stemmed: what follows "to" is the intention ("decided not to move"). */
export const INTENTIONS = new Set([
  "plan",
  "intend",
  "want",
  "hope",
  "decid",
  "aim",
  "wish",
  "go",
  "expect",
]);

/** Whether the word after "do" starts its object ("does yoga") rather than a verb ("does like"). */
export function doesObject(word: FactWord): boolean {
  const lower = word.lower;
  if (NEGATIONS.has(lower) || ADVERBS.has(lower) || /n't$/u.test(word.raw)) return false;
  if (isIrregularVerb(lower) || isCommonVerb(word.norm)) return false;
  return true;
}

/**
 * Whether the words at `at` start a circumstance, not an object: a conjunction ("and I'm now"),
 * or a time ("in January", "last year", "after the summer"); "on Pennywise" is an object.
 */
export function startsCircumstance(words: readonly FactWord[], at: number): boolean {
  const first = words[at]?.lower;
  if (first === undefined) return false;
  if (/^(and|but|because|since|last|this|after|before|when)$/u.test(first)) return true;
  const second = words[at + 1]?.lower ?? "";
  return PREPOSITIONS.has(first) && TIME_NOUN.test(second);
}

const TIME_NOUN =
  /^(january|february|march|april|may|june|july|august|september|october|november|december|monday|tuesday|wednesday|thursday|friday|saturday|sunday|spring|summer|autumn|fall|winter|\d{4}|last|early|late)$/u;

export const ENDING_PARTICLES = new Set(["away", "off", "up", "out", "back"]);

const COMMUTE_VERBS = new Set(["take", "drive", "cycl", "bike", "walk", "ride", "commut", "run"]);
const COMMUTE_GOALS = new Set(["work", "office", "job"]);

/**
 * How someone gets to work ("takes the bus to work", "cycles to work", "drives to the office"):
 * the way, as one word ("bu", "cycl"), or undefined when the predicate is no commute.
 */
export function readCommute(words: readonly FactWord[], at: number): string | undefined {
  const verb = words[at]?.norm ?? "";
  if (!COMMUTE_VERBS.has(verb)) return undefined;
  const to = words.findIndex((word, index) => index > at && index <= at + 6 && word.lower === "to");
  const goal = words.slice(to + 1, to + 3).find((word) => !VALUE_NOISE.has(word.lower));
  if (to < 0 || goal === undefined || !COMMUTE_GOALS.has(goal.norm)) return undefined;
  if (verb !== "take") return verb;
  // "takes the train from Reading to work": the vehicle is the object of "take"
  return words.slice(at + 1, to).find((word) => !VALUE_NOISE.has(word.lower))?.norm;
}
