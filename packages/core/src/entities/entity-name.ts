/**
 * One id per entity and namespace: the name as people write it, folded so that "Melanie",
 * "MELANIE" and "Melanie's" are one entity and "The Hague" and "Hague" stay apart only by the
 * article a writer may drop.
 *
 * Shared by the entity reading (mentions) and the knowledge-graph triples, so a triple's subject
 * and an entry's mention of the same name meet at the same id.
 */

/** Possessive endings: "Melanie's", "James'", typographic apostrophes included. */
const POSSESSIVE = /['\u2019](s)?$/u;

/** A leading article, dropped so that "the Louvre" and "Louvre" are one entity. */
const LEADING_ARTICLE = /^(the|a|an)\s+/u;

/** Longest entity name kept (characters, after folding); longer text is not a name. */
export const MAX_ENTITY_NAME_LENGTH = 80;

/**
 * The entity id of a name ("Melanie's" -> "melanie", "the  Golden Gate Bridge" ->
 * "golden gate bridge"), or undefined when nothing name-like is left.
 */
export function entityId(name: string): string | undefined {
  const words = name
    .normalize("NFKC")
    .toLowerCase()
    .split(/\s+/u)
    .map((word) => word.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}'\u2019]+$/gu, ""))
    .filter((word) => word.length > 0);
  const last = words.length - 1;
  if (last >= 0) words[last] = (words[last] as string).replace(POSSESSIVE, "");
  const folded = words
    .join(" ")
    .replace(LEADING_ARTICLE, "")
    .replace(/['\u2019]/gu, "'")
    .trim();
  if (folded.length === 0 || folded.length > MAX_ENTITY_NAME_LENGTH) return undefined;
  if (!/\p{L}/u.test(folded)) return undefined;
  return folded;
}
