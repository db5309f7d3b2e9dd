import { isStopWord } from "../../algorithms/stop-words.js";
import {
  type AttributeDefinition,
  attributeOfExactNoun,
  attributeOfNoun,
  attributeOfValue,
  type Cardinality,
  isOccupation,
  isRelation,
  matchPhrase,
  nounMatch,
  ROLE_PARTICIPLES,
  ROLE_VERBS,
  ROLES,
} from "./attribute-table.js";
import {
  ADDITIVE,
  ADDITIVE_PHRASES,
  ADVERBS,
  AUXILIARIES,
  CHANGE,
  CHANGE_PHRASES,
  COPULAS,
  ENDING_VERBS,
  NEGATIONS,
  VALUE_BREAKS,
  VALUE_NOISE,
} from "./fact-lexicon.js";
import { type FactWord, factWords, normalizeWord } from "./fact-words.js";
import { readSubject, type SubjectPhrase, startsPredicate } from "./read-subject.js";

/** A fact as read from one text (English). */
export interface Fact {
  subject?: SubjectPhrase;
  /** `lives_in`, `role:ceo`, `favorite:food`, `of:car`, `verb:<stem>`, `be`, `label:<words>`. */
  attribute?: string;
  cardinality?: Cardinality;
  /** The value's normalized words (noise words left out); empty when none was read. */
  value: string[];
  /** The value as typed. */
  valueText: string;
  /** The statement is negated ("does not", "never", "dislikes"). */
  negated: boolean;
  additive: boolean;
  /** The fact says a state is over ("no longer", "quit", "stopped", "used to"). */
  ended: boolean;
  /** The fact says something changed ("now", "moved", "switched", "has a new"). */
  change: boolean;
  /** The value is limited by a circumstance ("after 2 pm", "on weekdays"): a partial statement. */
  circumstance?: string;
  /** The comparable words of the whole predicate (where an ended value may stand). */
  predicate: string[];
  /** "has a new X": a change of a single thing, an addition to a multi-valued one. */
  newThing?: boolean;
  /** Values the fact says are over ("switched from X", "no more X", "instead of X", "left X"). */
  ends: string[][];
  /** What could not be read, when something could not. */
  note?: string;
}

/** Words after "went" / "turned" that make them verbs of motion, not of change ("went to"). */
const PARTICLES = new Set([
  "to",
  "into",
  "on",
  "off",
  "back",
  "home",
  "out",
  "up",
  "down",
  "over",
  "for",
  "with",
  "from",
  "a",
  "an",
  "the",
  "in",
  "abroad",
  "away",
]);

/** Words that limit a statement to some times or cases ("does not drink coffee after 2 pm"). */
const CIRCUMSTANCES = new Set([
  "after",
  "before",
  "during",
  "when",
  "while",
  "until",
  "on",
  "at",
  "in",
  "every",
  "each",
  "except",
  "unless",
  "if",
  "outside",
]);

/** Where someone works inside an organisation (normalized): "moved to the platform team". */
const WORK_UNITS = new Set([
  "team",
  "depart",
  "group",
  "divis",
  "unit",
  "squad",
  "project",
  "floor",
  "offic",
  "desk",
  "shift",
  "role",
  "posit",
  "branch",
]);

const PREPOSITIONS = new Set(["at", "of", "in", "for", "on", "from", "with", "to", "by"]);

const SELF_SUBJECT: SubjectPhrase = { nodes: [{ words: [], self: true }] };
const SKIPPED_LABELS = new Set([
  "update",
  "note",
  "fyi",
  "correction",
  "reminder",
  "fact",
  "memory",
  "important",
  "ps",
]);

const hasPhrase = (norms: readonly string[], phrases: readonly (readonly string[])[]) =>
  phrases.some((phrase) =>
    norms.some((_, at) => phrase.every((word, k) => norms[at + k] === word)),
  );

/** The value starting at `at`: up to a break word or punctuation. */
function readValue(words: readonly FactWord[], at: number): { words: FactWord[]; next: number } {
  const value: FactWord[] = [];
  let index = at;
  for (; index < words.length; index++) {
    const word = words[index]!;
    if (value.length > 0 && VALUE_BREAKS.has(word.lower)) break;
    value.push(word);
    if (
      word.after !== "" &&
      !(word.after === "." && /^(dr|mr|mrs|ms|st|jr|inc|co)$/u.test(word.lower))
    ) {
      index++;
      break;
    }
  }
  return { words: value, next: index };
}

/** The comparable words of a value. */
export function valueTerms(words: readonly FactWord[]): string[] {
  return words
    .filter(
      (word) =>
        !VALUE_NOISE.has(word.lower) && !(isStopWord(word.lower) && !/\d/u.test(word.lower)),
    )
    .map((word) => word.norm.replace(/^(\d+)(st|nd|rd|th)$/u, "$1"));
}

const single = (attribute: AttributeDefinition) => ({
  attribute: attribute.id,
  cardinality: attribute.cardinality,
});

/**
 * Reads subject, attribute, value, polarity and markers from an English text ("The user's
 * sister Maya moved to Rome last month" -> subject `@user > sister maya`, attribute `lives_in`,
 * value `rome`, change). Unknown verbs become `verb:<stem>` (multi-valued); what cannot be read
 * is left undefined and named in `note`, and the decision then keeps the older fact.
 */
export function readFact(text: string): Fact {
  const words = factWords(text);
  const norms = words.map((word) => word.norm);
  const fact: Fact = {
    value: [],
    valueText: "",
    negated: false,
    additive: words.some((word) => ADDITIVE.has(word.lower)) || hasPhrase(norms, ADDITIVE_PHRASES),
    ended: /\b(no longer|not any ?more|any ?more|used to|gave up|no more)\b/iu.test(text),
    change: words.some((word) => CHANGE.has(word.lower)) || hasPhrase(norms, CHANGE_PHRASES),
    ends: [],
    predicate: [],
  };
  if (words.length === 0) return { ...fact, note: "no words" };
  let start = leadingCircumstance(words);
  const comma = words.findIndex(
    (word, index) =>
      index >= start && index < start + 6 && (word.after === "," || word.after === ":"),
  );
  if (comma === start && SKIPPED_LABELS.has(words[start]!.lower)) {
    start++;
  } else if (comma >= 0 && words[comma]!.after === ":" && isLabel(words.slice(start, comma + 1))) {
    return readLabel(words, comma, fact);
  }
  const read = readSubject(words, start);
  let subject = read?.subject;
  let at = read?.end ?? start;
  if (subject === undefined || (subject.nodes.length === 0 && subject.unresolved === undefined)) {
    if (!startsPredicate(words, start, false)) return { ...fact, note: "no subject read" };
    subject = SELF_SUBJECT; // a fragment ("Moved to Munich") is about the user
    at = start;
  }
  fact.subject = subject;
  fact.predicate = valueTerms(words.slice(at));
  const result = readPredicate(words, at, fact);
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
  const value = readValue(words, colon + 1);
  return {
    ...fact,
    subject: read?.subject ?? SELF_SUBJECT,
    ...(attribute
      ? single(attribute)
      : { attribute: favorite ?? `label:${nouns.join(" ")}`, cardinality: "single" }),
    value: valueTerms(value.words),
    valueText: value.words.map((word) => word.raw).join(" "),
    negated: label.some((word) => NEGATIONS.has(word.lower)),
  };
}

/** `favorite:<words>`, word order and "of" ignored ("flavour of ice cream" = "ice cream flavor"). */
function favoriteAttribute(words: readonly string[]): string {
  return `favorite:${[...new Set(words.filter((word) => word !== "of"))].sort().join(" ")}`;
}

/**
 * "The user's standup moved to 10 am", "the dinner was moved to Café Sacher": when a possessed
 * thing (not a person) changes, the thing is the attribute and its owner the subject.
 */
function changedThing(fact: Fact): Partial<Fact> | undefined {
  const subject = fact.subject!;
  const last = subject.nodes.at(-1);
  if (!last || last.self || last.name !== undefined) return undefined;
  if (isRelation(last.words.at(-1) ?? "")) return undefined;
  // "The standup meeting moved to 10 am": the thing itself is now elsewhere ("is at 10 am").
  if (subject.nodes.length === 1) return { attribute: "be", cardinality: "multi" };
  const named = possessedAttribute(subject, false);
  return named && { ...named, subject: { nodes: subject.nodes.slice(0, -1) } };
}

/**
 * The attribute named by the subject's last link ("the user's favourite food is", "the user's
 * manager is"), if it is one. A related person ("the user's sister is a nurse") stays the
 * subject, unless the value names them ("the user's landlord is Deutsche Wohnen").
 */
function possessedAttribute(
  subject: SubjectPhrase,
  namesValue: boolean,
): { attribute: string; cardinality: Cardinality } | undefined {
  const last = subject.nodes.at(-1);
  if (!last || last.self || subject.nodes.length < 2) return undefined;
  // "speaker at home", "head of marketing": the head noun comes before the first preposition
  const cut = last.words.findIndex((word) => PREPOSITIONS.has(word));
  const words = cut > 0 ? last.words.slice(0, cut) : last.words;
  const head = words.at(-1);
  if (head === undefined) return undefined;
  const names = last.name === undefined ? [] : last.name.split(" ").map(normalizeWord);
  const favorite = last.words.indexOf("favorit");
  if (favorite >= 0)
    return {
      attribute: favoriteAttribute(last.words.slice(favorite + 1)),
      cardinality: "single",
    };
  const role = ROLES[head];
  const qualified = (id: string, qualifier: readonly string[]) =>
    qualifier.length + names.length === 0 ? id : `${id}[${[...qualifier, ...names].join(" ")}]`;
  if (role !== undefined) {
    return { attribute: qualified(`role:${role}`, words.slice(0, -1)), cardinality: "single" };
  }
  const known = nounMatch(words);
  if (known) {
    return {
      attribute: qualified(known.attribute.id, known.qualifier),
      cardinality: known.attribute.cardinality,
    };
  }
  if (isRelation(head) && !namesValue) return undefined;
  if (last.name !== undefined && words.length === 0) return undefined;
  return { attribute: qualified(`of:${head}`, words.slice(0, -1)), cardinality: "single" };
}

function readPredicate(words: readonly FactWord[], start: number, fact: Fact): Fact {
  let at = start;
  let copula = false;
  let standAsLike = false;
  // Auxiliaries, negations, adverbs and markers before the main verb.
  for (; at < words.length; at++) {
    const word = words[at]!;
    const lower = word.lower;
    const next = words[at + 1];
    if (NEGATIONS.has(lower) || /n't$/u.test(word.raw)) {
      if (lower === "no" && next?.lower === "longer") {
        fact.ended = true;
        at++;
      }
      fact.negated = true;
      if (COPULAS.has(lower.replace(/n't$/u, ""))) copula = true;
      // "can't stand X" is "does not like X"
      if (next?.lower === "stand" && /^(can't|cannot|can|cant)$/u.test(lower)) standAsLike = true;
      continue;
    }
    if (COPULAS.has(lower)) {
      copula = true;
      if (lower.startsWith("becam") || lower.startsWith("becom")) fact.change = true;
      continue;
    }
    // "went vegan", "turned 40": a copula that says a change
    if ((lower === "went" || lower === "turned") && next && !PARTICLES.has(next.lower)) {
      copula = true;
      fact.change = true;
      continue;
    }
    // "the user's hobbies include painting" reads as "are"
    if (word.norm === "includ" && possessedAttribute(fact.subject!, false) !== undefined) {
      copula = true;
      continue;
    }
    if (lower === "used" && next?.lower === "to") {
      fact.ended = true;
      at++;
      continue;
    }
    if (AUXILIARIES.has(lower)) {
      // "has moved" is an auxiliary; "has a dog" is the verb.
      if (
        next &&
        (ADVERBS.has(next.lower) ||
          NEGATIONS.has(next.lower) ||
          /ed$|en$/u.test(next.lower) ||
          /^(been|got|gotten|left|quit|bought|sold)$/u.test(next.lower) ||
          lower === "will" ||
          lower === "would" ||
          lower === "can" ||
          lower === "must" ||
          lower === "should" ||
          lower === "do" ||
          lower === "does" ||
          lower === "did")
      )
        continue;
      break;
    }
    if (ADVERBS.has(lower) || ADDITIVE.has(lower) || lower === "now" || lower === "nowadays")
      continue;
    if (ENDING_VERBS.has(lower) && !(lower === "left" && next?.lower === "for")) {
      fact.ended = true;
      if (next?.lower === "up") at++; // gave up
      const object = words[at + 1];
      if (object && /ing$/u.test(object.lower)) {
        // "stopped drinking coffee": the gerund is the verb, and the activity itself is over
        fact.ends.push([object.norm]);
        const after = valueTerms(readValue(words, at + 2).words);
        if (after.length > 0) fact.ends.push(after);
        continue;
      }
      const value = readValue(words, at + 1);
      fact.ends.push(valueTerms(value.words));
      fact.attribute = "ended";
      fact.cardinality = "multi";
      fact.value = valueTerms(value.words);
      fact.valueText = value.words.map((w) => w.raw).join(" ");
      return fact;
    }
    if (
      (lower === "started" || lower === "began" || lower === "start" || lower === "begun") &&
      next &&
      /ing$/u.test(next.lower)
    )
      continue;
    break;
  }
  const norms = words.map((word) => word.norm);
  if (standAsLike) norms[at] = "like";
  // "moved from Berlin to Munich", "switched from Spotify to Tidal": the old value is over.
  const from = words.findIndex(
    (word, index) => index > at && index <= at + 3 && word.lower === "from",
  );
  const to = from >= 0 ? words.findIndex((word, index) => index > from && word.lower === "to") : -1;
  let fromTo: number | undefined;
  if (from >= 0 && to > from) {
    fact.ends.push(valueTerms(words.slice(from + 1, to)));
    fact.change = true;
    fromTo = to;
  }
  // "instead of X", "rather than X", "over X" (after the value), "no more X".
  for (let index = at; index < words.length; index++) {
    const lower = words[index]!.lower;
    const marker =
      (lower === "instead" && words[index + 1]?.lower === "of") ||
      (lower === "rather" && words[index + 1]?.lower === "than") ||
      (lower === "no" && words[index + 1]?.lower === "more")
        ? 2
        : lower === "over" && index > at + 1
          ? 1
          : 0;
    if (marker > 0) fact.ends.push(valueTerms(readValue(words, index + marker).words));
  }
  const setValue = (valueStart: number) => {
    const value = readValue(words, valueStart);
    const limit = words[value.next]?.lower;
    if (limit !== undefined && CIRCUMSTANCES.has(limit)) fact.circumstance = limit;
    fact.value = valueTerms(value.words);
    fact.valueText = value.words.map((word) => word.raw).join(" ");
    return value;
  };
  const subject = fact.subject!;
  // "has a new CEO, Jane", "got a new dentist": the attribute is the noun, the change is said.
  if (
    /^(have|get)$/u.test(norms[at] ?? "") &&
    words[at + 1] &&
    /^(a|an)$/u.test(words[at + 1]!.lower) &&
    words[at + 2]?.lower === "new"
  ) {
    const noun = readValue(words, at + 3);
    const nounNorms = noun.words.map((word) => word.norm);
    const role = ROLES[nounNorms.at(-1) ?? ""];
    const match = role ? undefined : nounMatch(nounNorms);
    const known = match?.attribute;
    fact.change = true;
    fact.newThing = true;
    const base = role ? `role:${role}` : known ? known.id : `of:${nounNorms.at(-1) ?? ""}`;
    const qualifier = match ? match.qualifier : nounNorms.slice(0, -1);
    fact.attribute = qualifier.length > 0 ? `${base}[${qualifier.join(" ")}]` : base;
    fact.cardinality = known?.cardinality === "multi" ? "multi" : "single";
    const named =
      noun.next < words.length && /^(named|called)$/u.test(words[noun.next]!.lower)
        ? noun.next + 1
        : noun.next;
    if (named < words.length) setValue(named);
    return fact;
  }
  // "switched dentists to Dr. Park", "changed jobs", "switched to the Pro plan".
  if (/^(switch|chang|upgrad|downgrad)/u.test(norms[at] ?? "")) {
    fact.change = true;
    const to2 = words.findIndex((word, index) => index > at && word.lower === "to");
    const and = words.findIndex((word, index) => index > at && word.lower === "and");
    if (to2 < 0 && fromTo === undefined && and > at) {
      // "switched jobs and now works at SAP": the second verb says what changed
      return readPredicate(words, and + 1, { ...fact, change: true });
    }
    const between =
      to2 > at + 1
        ? words
            .slice(at + 1, to2)
            .filter((word) => !VALUE_NOISE.has(word.lower))
            .map((word) => word.norm)
        : [];
    const valueStart = fromTo !== undefined ? fromTo + 1 : to2 >= 0 ? to2 + 1 : at + 1;
    const value = setValue(valueStart);
    const named = between.length > 0 && !between.includes("from") ? between : undefined;
    const namedMatch = named ? nounMatch(named) : undefined;
    const known = namedMatch?.attribute ?? attributeOfNoun(valueTerms(value.words).slice(-1));
    const thing = named ? undefined : changedThing(fact);
    if (thing) Object.assign(fact, thing);
    else if (namedMatch && namedMatch.qualifier.length > 0) {
      fact.attribute = `${namedMatch.attribute.id}[${namedMatch.qualifier.join(" ")}]`;
      fact.cardinality = namedMatch.attribute.cardinality;
    } else if (known) Object.assign(fact, single(known));
    else if (named) {
      // "switched internet providers to Vodafone": the thing named is the attribute
      fact.attribute = `of:${named.at(-1)}`;
      fact.cardinality = "single";
    } else {
      fact.attribute = "changed";
      fact.cardinality = "multi";
    }
    return fact;
  }
  const phrase =
    fromTo === undefined
      ? matchPhrase(norms, at)
      : matchPhrase([norms[at]!, ...norms.slice(fromTo)], 0);
  if (phrase && !(copula && phrase.attribute.id === "owns")) {
    Object.assign(fact, single(phrase.attribute));
    if (phrase.negative) fact.negated = !fact.negated;
    if (phrase.change) fact.change = true;
    const value = setValue(fromTo !== undefined ? fromTo + phrase.length : at + phrase.length);
    const thing = phrase.change ? changedThing(fact) : undefined;
    if (thing) return Object.assign(fact, thing);
    // "moved to the platform team": a unit of work, not a home
    const unit = valueTerms(value.words).at(-1);
    if (phrase.attribute.id === "lives_in" && unit !== undefined && WORK_UNITS.has(unit)) {
      fact.attribute = "team";
      fact.cardinality = "single";
    }
    // "bought a new car, a Honda" / "has a Tesla": a possessed thing with its own attribute.
    if (phrase.attribute.id === "owns") {
      const head = valueTerms(value.words);
      const thing = attributeOfNoun(head.slice(-1));
      if (thing && thing.cardinality === "single") Object.assign(fact, single(thing));
    }
    return fact;
  }
  if (copula) return readCopula(words, at, fact, subject, setValue);
  const verb = words[at];
  if (verb === undefined) return { ...fact, note: "no predicate read" };
  const role = ROLE_VERBS[verb.norm];
  if (
    role !== undefined &&
    words[at + 1] &&
    !/^(on|in|at|to|for|with|from|by|into|out|up)$/u.test(words[at + 1]!.lower)
  ) {
    // "Maria now chairs the committee": the committee's chair is Maria.
    const object = readSubject(words, at + 1);
    if (object && object.subject.nodes.length > 0) {
      return {
        ...fact,
        subject: object.subject,
        attribute: `role:${role}`,
        cardinality: "single",
        value: subjectWords(subject),
        valueText: "",
      };
    }
  }
  fact.attribute = `verb:${verb.norm}`;
  fact.cardinality = "multi";
  setValue(at + 1);
  return fact;
}

/** A subject as value words (when a role turns it around). */
function subjectWords(subject: SubjectPhrase): string[] {
  const last = subject.nodes.at(-1);
  if (!last) return [];
  if (last.self) return ["@user"];
  return last.name !== undefined ? last.name.split(" ").map(normalizeWord) : last.words;
}

function readCopula(
  words: readonly FactWord[],
  at: number,
  fact: Fact,
  subject: SubjectPhrase,
  setValue: (start: number) => { words: FactWord[]; next: number },
): Fact {
  const first = words[at];
  const namesValue = first?.capitalized === true && !isOccupation(first.norm);
  const possessed = possessedAttribute(subject, namesValue);
  if (possessed) {
    setValue(at);
    return { ...fact, subject: { nodes: subject.nodes.slice(0, -1) }, ...possessed };
  }
  const rest = words.slice(at);
  // "The book club is chaired by Karen": the club's chair is Karen.
  const participle = ROLE_PARTICIPLES[rest[0]?.lower ?? ""];
  if (participle !== undefined && rest[1]?.lower === "by") {
    setValue(at + 2);
    return { ...fact, subject, attribute: `role:${participle}`, cardinality: "single" };
  }
  // "Petra is the user's boss", "Dr. Lee is Maya's dentist": the user's manager is Petra.
  const ownerAt = rest.findIndex((word, index) => index < 3 && word.possessive);
  if (ownerAt >= 0) {
    const owner = readSubject(words, at);
    const named = owner ? possessedAttribute(owner.subject, true) : undefined;
    if (owner && named && !named.attribute.startsWith("of:") && owner.end >= words.length - 1) {
      return {
        ...fact,
        subject: { nodes: owner.subject.nodes.slice(0, -1) },
        ...named,
        value: subjectWords(subject),
        valueText: "",
      };
    }
  }
  // "Jane is the CEO of Acme" / "Jane is Acme's new CEO": Acme's CEO is Jane.
  const roleAt = rest.findIndex((word, index) => index < 5 && ROLES[word.norm] !== undefined);
  if (roleAt >= 0) {
    const role = ROLES[rest[roleAt]!.norm]!;
    const of = rest[roleAt + 1]?.lower === "of" ? readSubject(words, at + roleAt + 2) : undefined;
    const owner = rest.slice(0, roleAt).findLast((word) => word.possessive)
      ? readSubject(words, at)
      : undefined;
    const org =
      of?.subject ??
      (owner
        ? { nodes: owner.subject.nodes.filter((node) => node.name !== undefined || node.self) }
        : undefined);
    if (org && org.nodes.length > 0) {
      return {
        ...fact,
        subject: org,
        attribute: `role:${role}`,
        cardinality: "single",
        value: subjectWords(subject),
        valueText: "",
      };
    }
  }
  const value = setValue(at);
  const valueNorms = value.words.map((word) => word.norm);
  const head = valueNorms.at(-1);
  if (head !== undefined && isOccupation(head) && !value.words.at(-1)!.capitalized) {
    return { ...fact, attribute: "job_title", cardinality: "single" };
  }
  const implied = attributeOfValue(valueNorms);
  if (implied) return { ...fact, ...single(implied) };
  if (
    /^\d+$/u.test(value.words[0]?.lower ?? "") &&
    (value.words.length === 1 || /^(year|yr)/u.test(value.words[1]!.lower))
  ) {
    return { ...fact, attribute: "age", cardinality: "single" };
  }
  const named = head === undefined ? undefined : attributeOfNoun([head]);
  if (named && value.words[0] && /^(on|with|in|at)$/u.test(value.words[0].lower))
    return { ...fact, ...single(named) };
  return { ...fact, attribute: "be", cardinality: "multi" };
}
