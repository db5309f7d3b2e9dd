import {
  attributeOfNoun,
  isRelation,
  matchPhrase,
  nounMatch,
  ROLE_VERBS,
  ROLES,
} from "./attribute-table.js";
import {
  ADDITIVE,
  ADVERBS,
  AUXILIARIES,
  COPULAS,
  ENDING_VERBS,
  isCommonVerb,
  NEGATIONS,
  VALUE_NOISE,
} from "./fact-lexicon.js";
import {
  CIRCUMSTANCES,
  type Fact,
  PARTICLES,
  readValue,
  single,
  valueTerms,
  WORK_UNITS,
} from "./fact-parts.js";
import type { FactWord } from "./fact-words.js";
import { changedThing, possessedAttribute, subjectWords } from "./possessed-attribute.js";
import {
  doesObject,
  ENDING_PARTICLES,
  INTENTIONS,
  isParticiple,
  isProgressive,
  readCommute,
  startsCircumstance,
} from "./predicate-words.js";

import { readCopula } from "./read-copula.js";
import { readSubject } from "./read-subject.js";
/**
 * The predicate after a subject: auxiliaries, negations, adverbs and markers first, then the
 * attribute (a table phrase, a change verb, a copula and its value, a role verb, or any verb),
 * then the value. Fills `fact` and returns it.
 */
export function readPredicate(words: readonly FactWord[], start: number, fact: Fact): Fact {
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
    // "is training for a 10K", "am reading X": a progressive is the verb, not a copula.
    if (COPULAS.has(lower) && next !== undefined && isProgressive(next.lower)) {
      fact.progressive = true;
      continue;
    }
    if (COPULAS.has(lower)) {
      copula = true;
      if (lower.startsWith("becam") || lower.startsWith("becom")) fact.change = true;
      continue;
    }
    // "the plants get watered by Nadia": "get" before a participle is a passive's copula
    if (/^(get|gets|got|getting)$/u.test(lower) && next && isParticiple(next.lower)) {
      copula = true;
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
    // "learned to swim" states "can swim" (what "can't swim" negated)
    if (/^(learned|learnt)$/u.test(lower) && next?.lower === "to") {
      at++;
      continue;
    }
    if (lower === "used" && next?.lower === "to") {
      fact.ended = true;
      at++;
      continue;
    }
    // "does crossword puzzles", "did a marathon": "do" before a noun is the verb itself.
    if (/^(do|does|did)$/u.test(lower) && next && doesObject(next)) break;
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
    // "won't quit on my dreams", "never stopped painting": a negated ending ends nothing.
    if (ENDING_VERBS.has(lower) && !fact.negated && !(lower === "left" && next?.lower === "for")) {
      fact.ended = true;
      if (next?.lower === "up" || next?.lower === "away") at++; // gave up, passed away
      // "died in April", "passed away last week": the subject itself is over, no object
      if (lower === "died" || lower === "passed") {
        return { ...fact, attribute: "ended", cardinality: "multi", value: [], valueText: "" };
      }
      const object = words[at + 1];
      if (object && /ing$/u.test(object.lower)) {
        // "stopped drinking coffee": the gerund is the verb, and its object is over; without an
        // object ("stopped painting") the activity itself is.
        // ("quit smoking in January", "quit teaching and ...": no object, the activity is over)
        const hasObject = object.after === "" && !startsCircumstance(words, at + 2);
        const after = hasObject ? valueTerms(readValue(words, at + 2).words) : [];
        fact.ends.push(after.length > 0 ? after : [object.norm]);
        continue;
      }
      const value = readValue(words, at + 1);
      // "gave Kiwi away", "sold the car off": the particle is no part of what ended
      value.words = value.words.filter((word) => !ENDING_PARTICLES.has(word.lower));
      fact.ends.push(valueTerms(value.words));
      // "My mom retired last year": her job and employer are over
      if (lower === "retired" && valueTerms(value.words).length === 0) {
        fact.ends.push(["job"], ["employer"]);
      }
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
    (word, index) => index > at && index <= at + 5 && word.lower === "from",
  );
  const to = from >= 0 ? words.findIndex((word, index) => index > from && word.lower === "to") : -1;
  let fromTo: number | undefined;
  // "all kinds of dances, from contemporary to hip-hop": past a clause break it is a range.
  const clauseBreak = words.some(
    (word, index) => index >= at && index < from && word.after === ",",
  );
  if (from >= 0 && to > from && !clauseBreak) {
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
        : lower === "over" && index > at + 1 && CHOICE_VERB.test(words[at]?.lower ?? "")
          ? 1
          : 0;
    if (marker > 0) fact.ends.push(valueTerms(readValue(words, index + marker).words));
  }
  const setValue = (valueStart: number) => {
    const value = readValue(words, valueStart);
    const limit = words[value.next]?.lower;
    const idiom = limit === "after" && words[value.next + 1]?.lower === "all"; // "after all"
    if (limit !== undefined && CIRCUMSTANCES.has(limit) && !idiom) fact.circumstance = limit;
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
  // "replaced my tablet with an iPad Air", "swapped the Golf for a Tesla": the object is the
  // attribute (or the value now over), the value follows "with" / "for".
  if (/^(replac|swap|trade|exchang)/u.test(norms[at] ?? "")) {
    const by = words.findIndex((word, index) => index > at + 1 && /^(with|for)$/u.test(word.lower));
    if (by > 0) {
      const object = valueTerms(words.slice(at + 1, by).filter((word) => word.lower !== "in"));
      fact.change = true;
      setValue(by + 1);
      const named = attributeOfNoun(object);
      if (named !== undefined && named.cardinality === "single")
        return Object.assign(fact, single(named));
      fact.ends.push(object);
      fact.attribute = "changed";
      fact.cardinality = "multi";
      return fact;
    }
  }
  const scheduled = readScheduled(words, at, setValue);
  if (scheduled !== undefined) return Object.assign(fact, scheduled);
  // "switched dentists to Dr. Park", "changed jobs", "switched to the Pro plan".
  const movesThing =
    norms[at] === "move" && /^(my|our|their|his|her|all|the)$/u.test(words[at + 1]?.lower ?? "");
  if (movesThing || /^(switch|chang|upgrad|downgrad)/u.test(norms[at] ?? "")) {
    fact.change = true;
    const to2 = words.findIndex((word, index) => index > at && word.lower === "to");
    const and = words.findIndex((word, index) => index > at && word.lower === "and");
    if (to2 < 0 && fromTo === undefined && and > at) {
      // "switched jobs and now works at SAP": the second verb says what changed
      return readPredicate(words, and + 1, { ...fact, change: true });
    }
    // "switched gyms, I go to X now": the thing switched ends at the clause break
    const clauseEnd = words.findIndex(
      (word, index) =>
        index > at && index < to2 && (word.after === "," || words[index + 1]?.lower === "and"),
    );
    const between =
      to2 > at + 1
        ? words
            .slice(at + 1, clauseEnd > at ? clauseEnd + 1 : to2)
            .filter((word) => !VALUE_NOISE.has(word.lower))
            .map((word) => word.norm)
        : [];
    // "switched to selling burgers": the gerund is the verb now done instead
    const gerund = to2 >= 0 ? words[to2 + 1] : undefined;
    if (gerund !== undefined && /ing$/u.test(gerund.lower) && isCommonVerb(gerund.norm)) {
      return readPredicate(words, to2 + 1, { ...fact, change: true, replacing: true });
    }
    const valueStart = fromTo !== undefined ? fromTo + 1 : to2 >= 0 ? to2 + 1 : at + 1;
    const value = setValue(valueStart);
    // "moved our son to Hillcrest School": the relative moved, the value says what changed
    if (movesThing && between.length === 1 && isRelation(between[0]!)) {
      fact.subject = { nodes: [...subject.nodes, { words: [between[0]!] }] };
      setValue(valueStart);
      fact.attribute = "changed";
      fact.cardinality = "multi";
      return fact;
    }
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
      // "switched internet providers to Vodafone": the thing named is the attribute, qualified
      // as "the user's internet provider" is
      const qualifier = named.slice(0, -1);
      fact.attribute = `of:${named.at(-1)!}${qualifier.length > 0 ? `[${qualifier.join(" ")}]` : ""}`;
      fact.cardinality = "single";
    } else {
      fact.attribute = "changed";
      fact.cardinality = "multi";
    }
    return fact;
  }
  const commute = readCommute(words, at);
  if (commute !== undefined) {
    fact.attribute = "commute";
    fact.cardinality = "single";
    fact.value = [commute];
    fact.valueText = commute;
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
    let value = setValue(fromTo !== undefined ? fromTo + phrase.length : at + phrase.length);
    // "went to a pride parade", "made pizza": the broad phrase did not state the attribute.
    if (!valueFitsPhrase(phrase.attribute.id, norms[at] ?? "", fact.valueText)) {
      fact.attribute = `verb:${words[at]!.norm}`;
      fact.cardinality = "multi";
      return fact;
    }
    // "goes to the gym at FitX": the value names another attribute, and its own value follows
    const inner = attributeOfNoun(valueTerms(value.words));
    const place = words[value.next];
    if (
      inner !== undefined &&
      inner.id !== phrase.attribute.id &&
      inner.cardinality === "single" &&
      place !== undefined &&
      /^(at|with)$/u.test(place.lower)
    ) {
      Object.assign(fact, single(inner));
      value = setValue(value.next + 1);
      return fact;
    }
    // "The project's docs live in Confluence" reads as "moved to Notion" does: the docs' place
    const thing =
      phrase.change || phrase.attribute.id === "lives_in" ? changedThing(fact) : undefined;
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
  // "plans to move abroad", "has decided not to move abroad": one intention, negated or not.
  if (INTENTIONS.has(verb.norm)) {
    const not = words[at + 1]?.lower === "not" ? 1 : 0;
    if (words[at + 1 + not]?.lower === "to") {
      if (not === 1) fact.negated = !fact.negated;
      fact.attribute = "intends";
      fact.cardinality = "multi";
      setValue(at + 2 + not);
      return fact;
    }
  }
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

/**
 * Broad verbs state an attribute only with a value of its shape: "goes to" is a school only for
 * a school or a named place ("goes to Lindenschule", "went to a boarding school"), not for
 * "went to a pride parade"; "makes" and "earns" are a salary only for an amount ("makes $90k a year"), not
 * for "made pizza" or "makes a difference".
 */
/**
 * "set our wedding date for the 14th of June", "scheduled the move for March": the date of a
 * thing of one's own, the same attribute as "moved the wedding to September" reads (`of:wed`),
 * so the new date supersedes the old. Only with a date for a value.
 */
function readScheduled(
  words: readonly FactWord[],
  at: number,
  setValue: (start: number) => { words: FactWord[] },
): Pick<Fact, "attribute" | "cardinality"> | undefined {
  if (!SCHEDULES.test(words[at]?.lower ?? "")) return undefined;
  if (!/^(my|our|their|his|her|the)$/u.test(words[at + 1]?.lower ?? "")) return undefined;
  const by = words.findIndex(
    (word, index) => index > at + 2 && index <= at + 6 && /^(for|on)$/u.test(word.lower),
  );
  if (by < 0) return undefined;
  const rest = words
    .slice(by + 1)
    .map((word) => word.lower)
    .join(" ");
  if (!DATE_VALUE.test(rest)) return undefined;
  const thing = valueTerms(words.slice(at + 2, by)).filter((norm) => !DATE_NOUNS.has(norm));
  if (thing.length === 0) return undefined;
  setValue(by + 1);
  return { attribute: `of:${thing.at(-1)!}`, cardinality: "single" };
}

const SCHEDULES = /^(set|sets|fixed|scheduled|schedules|booked|planned|arranged|picked)$/u;
/** Stems of the words that name a date rather than the thing dated ("wedding date"). */
const DATE_NOUNS = new Set(["date", "dai", "day", "time"]);
const DATE_VALUE =
  /\d|\b(january|february|march|april|may|june|july|august|september|october|november|december|monday|tuesday|wednesday|thursday|friday|saturday|sunday|tomorrow|next|spring|summer|autumn|fall|winter)\b/u;

function valueFitsPhrase(attribute: string, verb: string, valueText: string): boolean {
  if (attribute === "salary") return AMOUNT.test(valueText);
  // "I get to share it", "getting ready for a comp", "got back home": no thing is owned.
  if (attribute === "owns" && /^(get|got)/u.test(verb)) return !NOT_OWNED.test(valueText.trim());
  if (attribute === "school" && /^(go|went|gone|goe)/u.test(verb)) {
    return SCHOOL.test(valueText) || NAMED.test(valueText.trim());
  }
  return true;
}

const NOT_OWNED = /^(to|ready|back|together|along|better|worse|home|going|started|used|lost)\b/iu;
/**
 * Verbs after which "over X" means "instead of X" ("prefers tea over coffee", "picked Linear
 * over Jira"); elsewhere "over" is a place or a topic ("put a roof over kids", "talked it over").
 */
const CHOICE_VERB =
  /^(prefers?|preferred|prefer|cho(o)?se[sn]?|chose|picks?|picked|favou?rs?|favou?red|likes?|liked|loves?|loved|wants?|wanted|went|goes|go|uses?|used|recommends?|recommended|selected|selects?|opted|opts?)$/u;
const AMOUNT =
  /\d|[$€£¥]|\b(thousand|million|billion|grand|figures?|dollars?|euros?|pounds?|bucks|minimum wage|per (hour|month|year|week)|an? (hour|month|year|week))\b/iu;
/** A name: "Lindenschule", "the Goethe Gymnasium" (not "a pride parade", "an LGBTQ+ parade"). */
const NAMED = /^(the\s+)?\p{Lu}/u;
const SCHOOL =
  /\b(school|university|college|academy|kindergarten|preschool|nursery|gymnasium|uni|institute|polytechnic|seminary|elementary|high|middle|grammar|conservatory)\b|schule\b/iu;
