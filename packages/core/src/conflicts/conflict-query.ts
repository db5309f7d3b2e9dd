import { ATTRIBUTES, attributeQueryWords } from "./facts/attribute-table.js";
import type { Fact } from "./facts/read-fact.js";

/** Words the candidate query adds at most (the analyzer keeps 32 query terms). */
const EXTRA_WORDS = 12;

/**
 * The text of the one engine query that finds a new fact's candidates: the subject's head and
 * the attribute's surface forms ("lives", "based", "home", "city" for `lives_in`), then the text
 * itself. So "The user moved to Munich" reaches "The user lives in Berlin" even when many other
 * entries share more of its words. The vector stage still gets the document vector (the facade
 * answers the query's embedding with it), so nothing is embedded twice.
 */
export function conflictQuery(content: string, fact: Fact): string {
  const extra: string[] = [];
  const last = fact.subject?.nodes.at(-1);
  if (last?.self) extra.push("user");
  else if (last?.name !== undefined) extra.push(last.name);
  else if (last) extra.push(...last.words.slice(-1));
  const attribute = fact.attribute ?? "";
  const known = ATTRIBUTES.find((definition) => definition.id === attribute);
  if (known) extra.push(...attributeQueryWords(known));
  else if (/^(role|favorite|of|label):/u.test(attribute))
    extra.push(...attribute.replace(/^\w+:/u, "").split(" "));
  return [...new Set(extra)].slice(0, EXTRA_WORDS).concat(content).join(" ");
}
