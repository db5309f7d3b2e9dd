import { attributeCues, cuedBy } from "./facts/attribute-cues.js";
import { ATTRIBUTES, attributeQueryWords } from "./facts/attribute-table.js";
import type { Fact } from "./facts/read-fact.js";
import { kindsOf } from "./facts/value-kinds.js";

/** Words the candidate query adds at most (the analyzer keeps 32 query terms). */
const EXTRA_WORDS = 16;

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
  // A fact told with a general verb and a cue ("I see Dr. Evans for dental care") looks for the
  // attribute it cues ("dentist") as well.
  const attributes = [attribute, ...cuedBy(fact.predicate)];
  for (const id of new Set(attributes)) {
    const known = ATTRIBUTES.find((definition) => definition.id === id);
    if (known) extra.push(...attributeQueryWords(known), ...attributeCues(id));
    else if (/^(role|favorite|of|label):/u.test(id))
      extra.push(...id.replace(/^\w+:/u, "").replace(/[[\]]/gu, " ").split(" ").filter(Boolean));
  }
  // "quit teaching" looks for "teacher" too, "quit coffee" for "flat white", "latte"...
  for (const ended of fact.ends) {
    if (ended.length !== 1) continue;
    extra.push(`${ended[0]}er`, ...kindsOf(ended[0]!).flatMap((kind) => kind.split(" ")));
  }
  return [...new Set(extra)].slice(0, EXTRA_WORDS).concat(content).join(" ");
}
