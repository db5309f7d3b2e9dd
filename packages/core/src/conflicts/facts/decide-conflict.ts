import { cuedAttribute } from "./attribute-cues.js";
import { attributeOfNoun } from "./attribute-table.js";
import { normalizeWord } from "./fact-words.js";
import type { Fact } from "./read-fact.js";
import { sameSubject, subjectText } from "./read-subject.js";
import { hypernymsOf } from "./value-kinds.js";

/** What the rules decided for one older fact against a newer one. */
export interface RuleDecision {
  supersede: boolean;
  /** Short id of the rule that decided ("single-value-changed", "different-subjects", ...). */
  rule: string;
  /** The rule in words, with the readings it looked at. */
  reason: string;
  /**
   * Close to the line: same subject, and the rules could go either way (a change said about a
   * multi-valued or unnamed attribute). Only these are shown to a confirming chat model.
   */
  near: boolean;
}

type ValueRelation = "same" | "overlap" | "different" | "unknown";

/** Same when one value's words contain the other's ("Berlin" / "Berlin Germany"). */
export function compareValues(a: readonly string[], b: readonly string[]): ValueRelation {
  if (a.length === 0 || b.length === 0) return "unknown";
  const aInB = a.every((word) => b.includes(word));
  const bInA = b.every((word) => a.includes(word));
  if (aInB || bInA) return "same";
  return a.some((word) => b.includes(word)) ? "overlap" : "different";
}

const keep = (rule: string, reason: string, near = false): RuleDecision => ({
  supersede: false,
  rule,
  reason,
  near,
});
const supersede = (rule: string, reason: string, near = false): RuleDecision => ({
  supersede: true,
  rule,
  reason,
  near,
});

/**
 * The rules (packages/core/README.md, "Conflicts"): never across subjects; a value the new fact
 * says is over is superseded; otherwise only facts of the same attribute are compared: the same
 * statement negated or reversed is superseded, a single-valued attribute's different value is
 * superseded unless the new fact is additive, and a multi-valued attribute's values add up
 * (unless the new fact says a change of the same kind of value).
 */
export function decideConflict(older: Fact, newer: Fact): RuleDecision {
  if (older.subject === undefined || newer.subject === undefined) {
    return keep("not-read", `subject not read (${older.note ?? newer.note ?? "no subject"})`);
  }
  const a = subjectText(older.subject);
  const b = subjectText(newer.subject);
  if (!older.negated && endsOwnedThing(older, newer)) {
    return supersede("thing-ended", `"${b}" is gone (the new fact says so)`);
  }
  if (!sameSubject(older.subject, newer.subject)) {
    return keep("different-subjects", `different subjects (${a} / ${b})`);
  }
  const oldValue = older.valueText || older.value.join(" ");
  // A value the new fact ends, as the old value or anywhere in the old predicate ("no longer
  // use Neovim" ends "edits code in Neovim").
  const olderWords = [...older.predicate, ...hypernymsOf(older.value)];
  const endsOld = (ended: readonly string[]) =>
    compareValues(ended, older.value) === "same" ||
    (ended.length > 0 && ended.every((word) => olderWords.some((old) => sameRoot(old, word))));
  // "no more commuting", "sold the car", "quit the gym": the thing ended is the attribute itself
  const endsAttribute = (ended: readonly string[]) =>
    older.attribute !== undefined &&
    older.attribute === attributeOfNoun(ended.slice(-1))?.id &&
    older.cardinality === "single";
  const ended = older.negated
    ? undefined
    : newer.ends.find((words) => endsOld(words) || endsAttribute(words));
  if (ended !== undefined) {
    return supersede("value-ended", `the new fact says "${ended.join(" ")}" is over`);
  }
  if (older.attribute === undefined || newer.attribute === undefined) {
    return keep("not-read", "attribute not read");
  }
  // Two facts of the same verb without objects ("smokes" / "quit smoking") state the same thing.
  const relation =
    older.value.length === 0 && newer.value.length === 0
      ? "same"
      : compareValues(older.value, newer.value);
  if (older.attribute !== newer.attribute) {
    if (newer.attribute === "changed" && relation === "overlap" && !newer.additive) {
      return supersede(
        "changed-same-kind",
        `a change to a value of the same kind as "${oldValue}"`,
        true,
      );
    }
    // "The user is single" / "The user is dating Chris": a partner ends being single.
    if (
      older.attribute === "relationship_status" &&
      older.value.join(" ") === "singl" &&
      newer.attribute === "partner" &&
      !newerNegativeOrAdded(newer)
    ) {
      return supersede("partner-ends-single", "the new fact names a partner: no longer single");
    }
    if (dietBroken(older, newer)) {
      return supersede(
        "diet-broken",
        "the new fact eats what the diet excludes (or takes up the diet)",
      );
    }
    // "uses Jira for tickets" / "switched to Linear for tickets": what is done is the same
    if (
      newer.attribute === "changed" &&
      newer.replacing === true &&
      !newer.additive &&
      relation === "different" &&
      sharesContext(older, newer)
    ) {
      return supersede(
        "changed-same-context",
        "switched to another value for the same purpose",
        true,
      );
    }
    const cued = cuedAttribute(older, newer);
    if (cued !== undefined && relation !== "same") {
      return supersede(
        "cued-attribute",
        `"${oldValue}" is the ${cued} (the older fact's words say so) and the new fact names another`,
        true,
      );
    }
    return keep(
      "different-attributes",
      `different attributes (${older.attribute} / ${newer.attribute})`,
    );
  }
  const attribute = older.attribute;
  // "switched to X" and "switched to Y" name no attribute: two unnamed changes are not one.
  if (attribute === "changed" || attribute === "ended") {
    return keep("unnamed-attribute", "neither fact names the attribute that changed", true);
  }
  const newerNegative = newer.negated || newer.ended;
  if (relation === "same") {
    if (newerNegative && newer.circumstance !== undefined && older.circumstance === undefined) {
      return keep(
        "partial-negation",
        `negates ${attribute} only "${newer.circumstance} ..." (a limit, not a reversal)`,
      );
    }
    if (older.negated !== newerNegative) {
      return supersede(
        "negated",
        `the same statement (${attribute}: ${oldValue}) ${older.negated ? "reversed" : "negated"}`,
      );
    }
    // "works as a nurse" -> "got promoted to head nurse of the cardiology ward": a change to a
    // value that says more than the old one replaces it (a plain restatement does not).
    if (
      newer.change &&
      !newerNegative &&
      older.cardinality === "single" &&
      newer.value.length > older.value.length &&
      older.value.every((word) => newer.value.includes(word))
    ) {
      return supersede(
        "changed-to-narrower",
        `${attribute} changed ("now", "promoted", "moved"): "${oldValue}" -> a value that says more`,
      );
    }
    return keep("same-value", `restates the same value (${attribute}: ${oldValue})`);
  }
  if (newer.additive)
    return keep("additive", `additive ("also", "another"): ${attribute} gains a value`);
  if (newerNegative && relation === "unknown" && newer.value.length === 0) {
    return supersede("negated-all", `the new fact negates ${attribute} as a whole`);
  }
  if (newerNegative) return keep("negates-other-value", `negates another value of ${attribute}`);
  if (older.negated)
    return keep("old-negated", `the older fact negates another value of ${attribute}`);
  if (older.cardinality === "single") {
    if (relation === "unknown") {
      return newer.change
        ? supersede(
            "single-value-new",
            `${attribute} is single-valued and the new fact says it changed`,
          )
        : keep("value-unknown", `no value to compare for ${attribute}`);
    }
    if (NAME_VALUED.has(attribute) && [older, newer].some(describesInstead)) {
      // "The user's gym is FitX" / "The user's gym is now open until midnight": a property
      return keep("value-not-a-name", `${attribute} takes a name; one value describes it`);
    }
    return supersede(
      "single-value-changed",
      `${attribute} is single-valued: "${oldValue}" -> "${newer.valueText || newer.value.join(" ")}"`,
    );
  }
  const momentary = newer.progressive === true && older.progressive !== true;
  if (newer.change && newer.replacing === true && !newer.newThing && !momentary) {
    // "now", "these days", "switched": the new value takes the old one's place.
    return supersede(
      "multi-value-changed",
      `${attribute} changed ("now", "switched"): "${oldValue}" -> "${newer.valueText || newer.value.join(" ")}"`,
      true,
    );
  }
  return keep("multi-valued", `${attribute} is multi-valued: values add up`, newer.change);
}

const newerNegativeOrAdded = (fact: Fact) => fact.negated || fact.ended || fact.additive;

/** The same word, or its agent noun ("teach" / "teacher", "develop" / "developer"). */
const sameRoot = (a: string, b: string) =>
  a === b || a === `${b}er` || b === `${a}er` || a === `${b}or` || b === `${a}or`;

/**
 * "My cat Luna died" / "I have a cat named Luna": the newer fact ends its own subject, which the
 * older fact (about the owner) names as its value.
 */
function endsOwnedThing(older: Fact, newer: Fact): boolean {
  const nodes = newer.subject?.nodes ?? [];
  const last = nodes.at(-1);
  if (!newer.ended || newer.value.length > 0 || last === undefined || last.self) return false;
  if (older.subject === undefined || nodes.length < 2) return false;
  if (!sameSubject(older.subject, { nodes: nodes.slice(0, -1) })) return false;
  const words = [...last.words, ...(last.name?.split(" ") ?? [])];
  return (
    words.length > 0 &&
    words.every((word) =>
      older.value.some((value) => sameRoot(value, word) || value === normalizeWord(word)),
    )
  );
}

const MEAT = new Set([
  "meat",
  "chicken",
  "beef",
  "pork",
  "steak",
  "bacon",
  "lamb",
  "ham",
  "sausag",
]);
const SEAFOOD = new Set(["fish", "seafood", "salmon", "tuna", "shrimp", "prawn"]);
const NO_MEAT = new Set(["vegan", "vegetarian", "pescatarian"]);

/** "I'm vegetarian" / "I eat meat again" (or the other way round): the diet no longer holds. */
function dietBroken(older: Fact, newer: Fact): boolean {
  const eats = (fact: Fact) =>
    (fact.attribute === "eats" || fact.attribute === "likes") && !fact.negated && !fact.ended;
  const diet = (fact: Fact) =>
    fact.attribute === "diet" && !fact.negated && fact.value.some((word) => NO_MEAT.has(word));
  const excluded = (dietFact: Fact, eaten: Fact) =>
    eaten.value.some(
      (word) => MEAT.has(word) || (SEAFOOD.has(word) && !dietFact.value.includes("pescatarian")),
    );
  if (diet(older) && eats(newer)) return excluded(older, newer);
  if (eats(older) && diet(newer)) return excluded(newer, older);
  return false;
}

/**
 * Whether two facts share a word of their predicates that is neither value nor verb: the
 * purpose ("for tickets", "for work", "at home").
 */
function sharesContext(older: Fact, newer: Fact): boolean {
  const context = (fact: Fact) =>
    fact.predicate
      .slice(1)
      .filter((word) => !fact.value.includes(word) && !CONTEXT_FILLER.has(word));
  const newerContext = new Set(context(newer));
  return context(older).some((word) => newerContext.has(word));
}

const CONTEXT_FILLER = new Set(["switch", "chang", "to", "now", "instead", "from", "us"]);

/** Attributes whose values are names (a practice, a company, a person). */
const NAME_VALUED = new Set([
  "dentist",
  "doctor",
  "therapist",
  "vet",
  "gym",
  "bank",
  "school",
  "insurance",
  "internet_provider",
  "mobile_provider",
  "energy_supplier",
  "hairdresser",
  "landlord",
  "works_at",
  "manager",
]);

/** Words that describe a place or a service rather than name one ("open", "busy", "cheaper"). */
const DESCRIPTIONS = new Set(
  [
    "open",
    "closed",
    "busy",
    "crowded",
    "quiet",
    "expensive",
    "cheap",
    "cheaper",
    "pricier",
    "great",
    "good",
    "bad",
    "terrible",
    "nice",
    "far",
    "nearby",
    "renovated",
    "full",
    "better",
    "worse",
    "slow",
    "fast",
    "reliable",
    "unreliable",
    "friendly",
    "rude",
  ].map(normalizeWord),
);

const describesInstead = (fact: Fact) =>
  fact.value[0] !== undefined && DESCRIPTIONS.has(fact.value[0]);
