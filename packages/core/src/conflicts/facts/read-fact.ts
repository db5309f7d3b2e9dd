import { textMemo } from "../../algorithms/text-memo.js";
import { attributeOfExactNoun } from "./attribute-table.js";
import {
  ADDITIVE,
  ADDITIVE_PHRASES,
  CHANGE,
  CHANGE_PHRASES,
  NEGATIONS,
  VALUE_NOISE,
} from "./fact-lexicon.js";
import { type Fact, readValue, SELF_SUBJECT, SKIPPED_LABELS, valueTerms } from "./fact-parts.js";
import { type FactWord, factWords } from "./fact-words.js";
import { favoriteAttribute } from "./possessed-attribute.js";
import { readPredicate } from "./read-predicate.js";
import { opensWithPredicate, readSubject, startsPredicate } from "./read-subject.js";
import { typedByValue } from "./value-kinds.js";

export type { Fact } from "./fact-parts.js";
export { valueTerms } from "./fact-parts.js";

const hasPhrase = (norms: readonly string[], phrases: readonly (readonly string[])[]) =>
  phrases.some((phrase) =>
    norms.some((_, at) => phrase.every((word, k) => norms[at + k] === word)),
  );

/** Facts kept by text: a store's conflict check reads up to 20 candidates, mostly the same ones. */
const keptFact = textMemo(readFresh, 2_048);

/**
 * Reads subject, attribute, value, polarity and markers from an English text ("The user's
 * sister Maya moved to Rome last month" -> subject `@user > sister maya`, attribute `lives_in`,
 * value `rome`, change). Unknown verbs become `verb:<stem>` (multi-valued); what cannot be read
 * is left undefined and named in `note`, and the decision then keeps the older fact.
 *
 * A text read before is not read again (about 0.2 ms for a conversational turn): each caller
 * gets its own copy of the kept fact, so nothing one decision does to it reaches another.
 */
export function readFact(text: string): Fact {
  return structuredClone(keptFact(text));
}

function readFresh(text: string): Fact {
  const marked = factWords(text);
  const markedNorms = marked.map((word) => word.norm);
  // "these days", "now" say the fact is current (a change marker) but are no part of the
  // subject or value: "The user's favourite cereal these days is porridge".
  const words = factWords(text.replace(PRESENCE, " "));
  const fact: Fact = {
    value: [],
    valueText: "",
    negated: false,
    additive:
      marked.some((word) => ADDITIVE.has(word.lower)) || hasPhrase(markedNorms, ADDITIVE_PHRASES),
    // (in the main clause: "My new manager is Daniel, he used to work at Siemens" ends nothing)
    ended:
      /\b(no longer|not any ?more|any ?more|used to|gave up|no more)\b/iu.test(mainClause(text)) ||
      UNTIL_ENDED.test(text),
    change:
      marked.some((word) => CHANGE.has(word.lower)) ||
      hasPhrase(markedNorms, CHANGE_PHRASES) ||
      PRESENCE_CHANGE.test(text),
    replacing: marked.some((word) => REPLACING.has(word.lower)) || PRESENCE_CHANGE.test(text),
    ends: [],
    predicate: [],
  };
  if (words.length === 0) return { ...fact, note: "no words" };
  let start = leadingCircumstance(words);
  const comma = words.findIndex(
    (word, index) =>
      index >= start && index < start + 6 && (word.after === "," || word.after === ":"),
  );
  // "Update:", "Big news:", "Heads up,": a discourse label, not an attribute
  const discourse =
    comma >= start && words.slice(start, comma + 1).every((word) => SKIPPED_LABELS.has(word.lower));
  if (discourse) {
    start = comma + 1;
  } else if (comma >= 0 && words[comma]!.after === ":" && isLabel(words.slice(start, comma + 1))) {
    return readLabel(words, comma, fact);
  }
  // "Always use tabs", "Moved to Kiel": an instruction or a fragment is about the user.
  const read = opensWithPredicate(words[start]) ? undefined : readSubject(words, start);
  let subject = read?.subject;
  let at = read?.end ?? start;
  if (subject === undefined || (subject.nodes.length === 0 && subject.unresolved === undefined)) {
    if (!opensWithPredicate(words[start]) && !startsPredicate(words, start, false)) {
      return { ...fact, note: "no subject read" };
    }
    subject = SELF_SUBJECT; // a fragment ("Moved to Munich") is about the user
    at = start;
  }
  fact.subject = subject;
  const current = text.match(LATER_NOW);
  if (current !== undefined && current !== null && at > start) {
    // "drove a Volvo but sold it and now drives a Tesla": the clause after "and now" is what
    // holds; what the earlier clauses ended stays ended
    const earlier = readFact(text.slice(0, current.index));
    const subjectText = words
      .slice(start, at)
      .map((word) => word.raw)
      .join(" ");
    const copula = (current[1] ?? "")
      .toLowerCase()
      .replace(/^(i'm)$/u, "am")
      .replace(/^\w+'re$/u, "are")
      .replace(/^\w+'s$/u, "is");
    const later = readFact(`${subjectText} ${copula} now ${current[2]}`);
    return {
      ...later,
      change: true,
      replacing: true,
      ends: [...earlier.ends, ...later.ends],
    };
  }
  fact.predicate = valueTerms(words.slice(at));
  fact.named = words.slice(at).some((word, index) => word.capitalized && index + at > 0);
  const result = typedByValue(readPredicate(words, at, fact));
  // "no longer uses Neovim", "used to live in Berlin": the value itself is over.
  if (
    result.ended &&
    result.value.length > 0 &&
    !result.ends.some((ended) => ended.join() === result.value.join())
  ) {
    result.ends.push(result.value);
  }
  return result;
}

/**
 * The text up to a clause about someone else: ", he used to ...", "; she ...". What that
 * clause says (an ending, an addition) is not said of the fact.
 */
function mainClause(text: string): string {
  const cut = text.search(/[,;]\s+(?:he|she|they|it|which|who)\b/iu);
  return cut < 0 ? text : text.slice(0, cut);
}

// "swam for the county team until she quit in May": what held until then is over.
const UNTIL_ENDED = /\buntil (?:\w+ )?(?:quit|stopped|left|retired|moved|gave up|sold|closed)\b/iu;

const REPLACING = new Set([
  "now",
  "nowadays",
  "switched",
  "switch",
  "changed",
  "replaced",
  "instead",
  "anymore",
  "moved",
  "transferred",
]);

// "... and now drives a Tesla", "... and I'm now a developer", "..., but is now retired"
const LATER_NOW =
  /(?:,|\b(?:and|but))\s+(?:(?:i|we|he|she|they)\s+)?((?:am|is|are|i'm|we're|he's|she's|they're)?)\s*now\s+(\w.*)$/iu;

// Of those, the ones that say the fact replaced an earlier one ("currently" only says it holds).
const PRESENCE_CHANGE = /\b(?:these days|nowadays|from now on)\b/iu;
// Not "now" after "from" or "until" ("from now on" is listed whole), nor "now that".
const PRESENCE =
  /\b(?:these days|nowadays|at the moment|from now on|right now|currently|(?<!\b(?:from|until|till) )now(?! that\b))\b/giu;

const LEADING =
  /^(from now on|these days|nowadays|recently|lately|today|now|currently|at the moment|for now|going forward|ok|okay|so|actually|btw|by the way|update|correction)\b/iu;
const LEADING_WITH_COMMA =
  /^(as of|since|starting|last|this|next|in|on|after|before|following|effective|as)\b/iu;

/** Where the sentence proper starts after a leading circumstance ("From now on,", "Last month,"). */
function leadingCircumstance(words: readonly FactWord[]): number {
  const head = words
    .slice(0, 4)
    .map((word) => word.lower)
    .join(" ");
  const lead = head.match(LEADING)?.[0];
  if (lead !== undefined) {
    const count = lead.split(" ").length;
    return words[count - 1]?.after === "," || words[count - 1]?.after === ":" ? count : count;
  }
  if (LEADING_WITH_COMMA.test(head)) {
    const comma = words.findIndex((word, index) => index < 6 && word.after === ",");
    if (comma >= 0) return comma + 1;
  }
  return 0;
}

/** A label is a short noun phrase ("Dentist:", "Maya's phone:"), not a clause ("I no longer use X:"). */
function isLabel(label: readonly FactWord[]): boolean {
  const nouns = label.filter((word) => !VALUE_NOISE.has(word.lower)).map((word) => word.norm);
  // "Favourite drink:", "Coffee order:": a table noun is a label even where it could be a verb.
  if (label.length <= 4 && (nouns[0] === "favorit" || attributeOfExactNoun(nouns) !== undefined))
    return true;
  return (
    label.length <= 4 &&
    !label.some(
      (word, index) =>
        PRONOUNS_AND_SELF.has(word.lower) || (index > 0 && startsPredicate(label, index, false)),
    )
  );
}

const PRONOUNS_AND_SELF = new Set(["i", "we", "he", "she", "they", "you", "it"]);

/** "Dentist: Dr. Lee", "Maya's phone: 555-0100". */
function readLabel(words: readonly FactWord[], colon: number, fact: Fact): Fact {
  const label = words.slice(0, colon + 1);
  const possessed = label.findLastIndex((word) => word.possessive);
  const read = possessed >= 0 ? readSubject(words.slice(0, possessed + 1), 0) : undefined;
  const nouns = label
    .slice(possessed + 1)
    .filter((word) => !VALUE_NOISE.has(word.lower))
    .map((word) => word.norm);
  // A label names its attribute exactly: "Home city" is lives_in, "Birth city" is not.
  const favorite = nouns[0] === "favorit" ? favoriteAttribute(nouns.slice(1)) : undefined;
  const attribute = favorite === undefined ? attributeOfExactNoun(nouns) : undefined;
  // "Coffee order: oat cappuccino" states the one value; "Languages: French" lists several.
  const listed = /s$/u.test(label.at(-1)?.lower ?? "");
  const value = readValue(words, colon + 1);
  return {
    ...fact,
    subject: read?.subject ?? SELF_SUBJECT,
    ...(attribute
      ? { attribute: attribute.id, cardinality: listed ? attribute.cardinality : "single" }
      : { attribute: favorite ?? `label:${nouns.join(" ")}`, cardinality: "single" }),
    value: valueTerms(value.words),
    valueText: value.words.map((word) => word.raw).join(" "),
    negated: label.some((word) => NEGATIONS.has(word.lower)),
  };
}
