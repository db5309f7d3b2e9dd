import { type Fact, readFact } from "@memory/core";

/**
 * A question read as the fact that would answer it: "Where do I live?" as "I live in ...",
 * "Who is my manager?" as "my manager is ...", "What phone does the user have?" as "the user
 * has phone", through `@memory/core`'s fact reading. Undefined when the question does not name
 * a subject and an attribute (then recall alone answers it).
 */
export function readQuestion(question: string): Fact | undefined {
  const statement = asStatement(question);
  if (statement === undefined) return undefined;
  const fact = readFact(statement);
  if (fact.subject === undefined || fact.subject.unresolved !== undefined) return undefined;
  const attribute = fact.attribute;
  if (attribute === undefined || attribute === "be" || attribute.startsWith("verb:"))
    return undefined;
  if (attribute === "changed" || attribute === "ended") return undefined;
  return fact;
}

const AUXILIARY = "(?:do|does|did|is|are|am|was|were|has|have)";
/** Verbs whose place is "at" ("where does she work" -> "she works at"). */
const AT_VERBS = new Set(["work", "works", "shop", "shops", "bank", "banks", "train", "trains"]);

/** The statement a question asks to complete, or undefined when it has no such shape. */
function asStatement(question: string): string | undefined {
  const text = question
    .trim()
    .replace(/[?!.]+$/u, "")
    .replace(/\b(now|these days|currently|at the moment|again)\b/giu, "")
    .replace(/\s+/gu, " ")
    .trim();
  // "What does my sister do for a living?" -> "my sister works as"
  let match = text.match(/^what (?:do|does|did) (.+) do for (?:a living|work)$/iu);
  if (match) return `${match[1]} works as`;
  match = text.match(new RegExp(`^where ${AUXILIARY} (.+) (\\w+)$`, "iu"));
  if (match)
    return `${match[1]} ${match[2]} ${AT_VERBS.has(match[2]!.toLowerCase()) ? "at" : "in"}`;
  match = text.match(/^(?:who|what|which) (?:is|are|was|were) (.+)$/iu);
  if (match) return `${match[1]} is`;
  match = text.match(
    new RegExp(`^(?:what|which) (\\w+(?: \\w+)?) ${AUXILIARY} (.+) (\\w+)$`, "iu"),
  );
  if (match) return `${match[2]} ${match[3]} ${match[1]}`;
  // "What do I drink in the morning?" -> "I drink in the morning"
  match = text.match(/^(?:what|which) (?:do|does|did) (.+)$/iu);
  if (match) return match[1];
  match = text.match(new RegExp(`^${AUXILIARY} (.+)$`, "iu"));
  if (match) return match[1];
  return undefined;
}
