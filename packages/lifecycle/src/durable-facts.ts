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
 * A sentence that states two facts as two facts. Independent clauses, each with its own subject
 * ("I quit coffee this week, I only drink green tea now"), and clauses of one subject joined by
 * "and" ("My sister Clara lives in Hamburg and works as a nurse" is "My sister Clara lives in
 * Hamburg" and "My sister Clara works as a nurse"), so that a new job supersedes the job and
 * leaves the city. Only when both parts are durable facts (of different attributes, for a shared
 * subject); otherwise the sentence stays whole.
 */
function splitCompound(sentence: string): string[] {
  const roleAndPlace = splitRoleAndPlace(sentence);
  if (roleAndPlace !== undefined) return roleAndPlace;
  for (const joint of sentence.matchAll(CLAUSE_JOINT)) {
    const first = sentence.slice(0, joint.index).trim();
    const rest = sentence.slice(joint.index + joint[0].length).trim();
    if (!isDurableFact(first)) continue;
    if (opensWithOwnSubject(rest)) {
      if (isDurableFact(rest)) return [first, ...splitCompound(rest)];
      continue;
    }
    if (!/and/u.test(joint[0])) continue;
    const shared = sharedSubjectClause(first, rest);
    if (shared !== undefined) return [first, shared];
  }
  return [sentence];
}

/**
 * A job told with its role and its employer at once ("I work as a backend engineer at
 * Finlytics", "started a new job at Helio Energy as a platform engineer") is two facts: the
 * sentence without the employer and the sentence without the role. A new role then supersedes
 * the role and a new employer the employer, each on its own, and a turn that says both is stale
 * when either changed. Only when both parts read as facts of different attributes.
 */
function splitRoleAndPlace(sentence: string): string[] | undefined {
  const role = ROLE_PHRASE.exec(sentence);
  const place = PLACE_PHRASE.exec(sentence);
  if (role === null || place === null) return undefined;
  const without = (match: RegExpExecArray) =>
    `${sentence.slice(0, match.index)}${sentence.slice(match.index + match[0].length)}`;
  const [roleOnly, placeOnly] = [without(place), without(role)];
  if (!isDurableFact(roleOnly) || !isDurableFact(placeOnly)) return undefined;
  if (readFact(roleOnly).attribute === readFact(placeOnly).attribute) return undefined;
  return [roleOnly, placeOnly];
}

/** " as a platform engineer" (up to a comma, a full stop or the next preposition). */
const ROLE_PHRASE =
  /\s+as\s+(?:an?\s+|the\s+)?[\p{L}\p{N} &'’-]+?(?=\s+(?:at|for|in|with)\s|[,.;!]|$)/u;
/** " at Helio Energy", " for Finlytics": an employer named with a capital. */
const PLACE_PHRASE =
  /\s+(?:at|for)\s+(?:the\s+)?\p{Lu}[\p{L}\p{N}&'’.-]*(?:\s+\p{Lu}[\p{L}\p{N}&'’.-]*)*/u;

/** A clause that opens with its own subject: a pronoun, a possessive or a name. */
function opensWithOwnSubject(clause: string): boolean {
  const first = clause.match(/^[\p{L}'’]+/u)?.[0] ?? "";
  return SUBJECT_WORDS.has(first.toLowerCase().replace("’", "'")) || /^\p{Lu}\p{Ll}/u.test(first);
}

const SUBJECT_WORDS = new Set(
  "i i'm i've we we're we've he he's she she's they they're my our his her their".split(" "),
);

/** Where a sentence may join two clauses: a comma, a semicolon, "and", "but". */
const CLAUSE_JOINT = /\s*[,;]\s+(?:and\s+|but\s+)?|\s+(?:and|but)\s+/gu;

/** The second clause of a shared subject, with the subject's words, or undefined. */
function sharedSubjectClause(first: string, rest: string): string | undefined {
  const firstFact = readFact(first);
  const subject = JSON.stringify(firstFact.subject);
  const words = first.split(/\s+/u);
  for (let k = 1; k <= Math.min(MAX_SUBJECT_WORDS, words.length - 1); k++) {
    const second = `${words.slice(0, k).join(" ")} ${rest}`;
    const fact = readFact(second);
    if (JSON.stringify(fact.subject) !== subject) continue;
    if (fact.attribute === firstFact.attribute || !isDurableFact(second)) continue;
    return second;
  }
  return undefined;
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
    const started = attribute === "verb:start" || attribute === "verb:take";
    return (marked || started) && (fact.value.length > 0 || fact.ends.length > 0 || fact.ended);
  }
  if (attribute === "changed" || attribute === "ended") return fact.value.length > 0 || fact.ended;
  return fact.value.length > 0 || fact.ended || fact.negated;
}
