import { readFact } from "@memory/core";
import { isContentless, isQuestion, sentences } from "./turn-text.js";

/**
 * The sentences of a user message that state a durable fact: where someone lives or works,
 * who their manager or dentist is, what they prefer, own, plan, quit or started, read through
 * `@memory/core`'s fact reading (the rules of conflict detection), so no trigger word is needed
 * ("we moved to Munich", "I quit coffee", "my new manager is Priya").
 *
 * Left out: questions, contentless sentences, sentences whose subject is a pronoun the reader
 * cannot resolve ("she"), hypotheticals ("if", "maybe", "would"), and events told with a plain
 * verb ("I went to the cinema yesterday"), which are episodes, not facts: a plain verb counts
 * only when the sentence says something ended, started or changed ("I quit coffee", "I now
 * cycle to work").
 */
export function durableFacts(message: string): string[] {
  return sentences(message.replace(BRACKETED, " ")).filter(isDurableFact).flatMap(splitCompound);
}

/** Subject words tried for a second clause ("My sister Clara" is three). */
const MAX_SUBJECT_WORDS = 4;

/**
 * A sentence that states two facts of one subject, joined by "and", as two facts: "My sister
 * Clara lives in Hamburg and works as a nurse" is "My sister Clara lives in Hamburg" and "My
 * sister Clara works as a nurse", so that a new job supersedes the job and leaves the city. Only
 * when both clauses are durable facts of the same subject with different attributes; otherwise
 * the sentence stays whole.
 */
function splitCompound(sentence: string): string[] {
  const at = sentence.search(/\s+and\s+/u);
  if (at < 0) return [sentence];
  const first = sentence.slice(0, at).trim();
  const rest = sentence
    .slice(at)
    .replace(/^\s+and\s+/u, "")
    .trim();
  if (!isDurableFact(first)) return [sentence];
  const firstFact = readFact(first);
  const subject = JSON.stringify(firstFact.subject);
  const words = first.split(/\s+/u);
  for (let k = 1; k <= Math.min(MAX_SUBJECT_WORDS, words.length - 1); k++) {
    const second = `${words.slice(0, k).join(" ")} ${rest}`;
    const fact = readFact(second);
    if (JSON.stringify(fact.subject) !== subject) continue;
    if (fact.attribute === firstFact.attribute || !isDurableFact(second)) continue;
    return [first.replace(/[,;]$/u, ""), second];
  }
  return [sentence];
}

/**
 * Bracketed asides are annotations, not what the user states: "[image: a photo of a beach]"
 * (a shared picture's caption), "[sic]", "[link]". Read as "label: value" they would become
 * facts that replace each other picture after picture.
 */
const BRACKETED = /\[[^\]\n]*\]/gu;

/** "you" in the subject: said to or about the listener ("Glad you had a great time"). */
const LISTENER = new Set(["you", "your", "yours", "yourself", "y'all"]);

/** Told as an episode of a day: kept as a fact only when it says something changed or ended. */
const EPISODE =
  /\b(yesterday|today|tonight|this morning|this afternoon|this evening|last night|earlier|just now)\b/iu;
const HYPOTHETICAL =
  /\b(if|maybe|perhaps|might|would|could|should|wonder|thinking about|considering)\b/iu;
const PAST_COPULA = /\b(was|were)\b/iu;
/** Shortest durable fact (characters): "I'm 34." is one, "Ok." is not. */
const MIN_CHARS = 6;
const MAX_CHARS = 300;

function isDurableFact(sentence: string): boolean {
  if (sentence.length < MIN_CHARS || sentence.length > MAX_CHARS) return false;
  if (isQuestion(sentence) || isContentless(sentence) || HYPOTHETICAL.test(sentence)) return false;
  const fact = readFact(sentence);
  if (fact.subject === undefined || fact.subject.unresolved !== undefined) return false;
  if (fact.subject.nodes.some((node) => node.words.some((word) => LISTENER.has(word)))) {
    return false;
  }
  const attribute = fact.attribute;
  if (attribute === undefined) return false;
  const marked = fact.ended || fact.change || fact.negated;
  if (EPISODE.test(sentence) && !fact.ended && !fact.change) return false;
  // "My job was a bummer", "It was tough": what was is an episode; a durable fact is stated in
  // the present or as a change ("I was promoted" says a change and stays).
  if (PAST_COPULA.test(sentence) && !fact.ended && !fact.change) return false;
  if (attribute.startsWith("verb:") || attribute === "be") {
    // "I quit coffee", "I don't eat pork", "I now cycle to work": a habit changed or stated
    // as over; "I went to the cinema" stays an episode.
    return marked && (fact.value.length > 0 || fact.ends.length > 0 || fact.ended);
  }
  if (attribute === "changed" || attribute === "ended") return fact.value.length > 0 || fact.ended;
  return fact.value.length > 0 || fact.ended || fact.negated;
}
