import { type Cardinality, isRelation, nounMatch, ROLES } from "./attribute-table.js";
import { type Fact, PREPOSITIONS } from "./fact-parts.js";
import { normalizeWord } from "./fact-words.js";
import type { SubjectPhrase } from "./read-subject.js";

/** `favorite:<words>`, word order and "of" ignored ("flavour of ice cream" = "ice cream flavor"). */
export function favoriteAttribute(words: readonly string[]): string {
  return `favorite:${[...new Set(words.filter((word) => word !== "of"))].sort().join(" ")}`;
}

/**
 * "The user's standup moved to 10 am", "the dinner was moved to Café Sacher": when a possessed
 * thing (not a person) changes, the thing is the attribute and its owner the subject.
 */
export function changedThing(fact: Fact): Partial<Fact> | undefined {
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
export function possessedAttribute(
  subject: SubjectPhrase,
  namesValue: boolean,
  valueIsOccupation = false,
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
  // an exact table noun wins over a role ("team lead" is the manager, not a role of the team)
  const exact = nounMatch(words);
  if (exact !== undefined && exact.qualifier.length === 0 && words.length > 1) {
    return { attribute: exact.attribute.id, cardinality: exact.attribute.cardinality };
  }
  const role = ROLES[head];
  const qualified = (id: string, qualifier: readonly string[]) =>
    qualifier.length + names.length === 0 ? id : `${id}[${[...qualifier, ...names].join(" ")}]`;
  if (role !== undefined) {
    return { attribute: qualified(`role:${role}`, words.slice(0, -1)), cardinality: "single" };
  }
  // "the user's husband is a teacher" is about the husband; "the user's husband is Tom" names him
  if (isRelation(head) && valueIsOccupation && words.length === 1) return undefined;
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

/** A subject as value words (when a role turns it around). */
export function subjectWords(subject: SubjectPhrase): string[] {
  const last = subject.nodes.at(-1);
  if (!last) return [];
  if (last.self) return ["@user"];
  return last.name !== undefined ? last.name.split(" ").map(normalizeWord) : last.words;
}
