import {
  attributeOfNoun,
  attributeOfValue,
  isOccupation,
  ROLE_PARTICIPLES,
  ROLES,
} from "./attribute-table.js";
import { type Fact, PREPOSITIONS, readValue, single } from "./fact-parts.js";
import type { FactWord } from "./fact-words.js";
import { possessedAttribute, subjectWords } from "./possessed-attribute.js";
import { isParticiple } from "./predicate-words.js";
import { readSubject, type SubjectPhrase } from "./read-subject.js";

export function readCopula(
  words: readonly FactWord[],
  at: number,
  fact: Fact,
  subject: SubjectPhrase,
  setValue: (start: number) => { words: FactWord[]; next: number },
): Fact {
  const first = words[at];
  const rest = words.slice(at);
  // "The book club is chaired by Karen": the club's chair is Karen.
  const participle = ROLE_PARTICIPLES[rest[0]?.lower ?? ""];
  if (participle !== undefined && rest[1]?.lower === "by") {
    setValue(at + 2);
    return { ...fact, subject, attribute: `role:${participle}`, cardinality: "single" };
  }
  // "is held in Vienna", "is paid by direct debit": a passive states what is done to the
  // subject; like any verb its values add up unless a change is said ("now held in Prague").
  if (
    first !== undefined &&
    isParticiple(first.lower) &&
    PREPOSITIONS.has(rest[1]?.lower ?? "") &&
    attributeOfValue([first.norm]) === undefined // "got married in May" states a status
  ) {
    setValue(at + 2);
    // "The user's dinner is booked at Lorenz": the dinner is the attribute, as in "was moved to".
    // (A table noun's attribute says which one the owner has: "the user's car is insured with
    // AXA" says nothing about which car, so the car stays the subject.)
    const thing = subject.nodes.length > 1 ? possessedAttribute(subject, false) : undefined;
    if (thing?.attribute.startsWith("of:")) {
      const owner = { nodes: subject.nodes.slice(0, -1) };
      return { ...fact, subject: owner, attribute: thing.attribute, cardinality: "multi" };
    }
    return { ...fact, attribute: `passive:${first.norm}`, cardinality: "multi" };
  }
  const namesValue = first?.capitalized === true && !isOccupation(first.norm);
  const occupation = isOccupation(readValue(words, at).words.at(-1)?.norm ?? "");
  const possessed = possessedAttribute(subject, namesValue, occupation);
  if (possessed) {
    setValue(at);
    return { ...fact, subject: { nodes: subject.nodes.slice(0, -1) }, ...possessed };
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
