import { isStopWord } from "../../algorithms/stop-words.js";
import type { AttributeDefinition, Cardinality } from "./attribute-table.js";
import { VALUE_BREAKS, VALUE_NOISE } from "./fact-lexicon.js";
import type { FactWord } from "./fact-words.js";
import type { SubjectPhrase } from "./read-subject.js";

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
  /**
   * The change says a value took another's place ("now", "switched", "instead", "these days"),
   * not only that something began ("became friends with", "joined", "recently"): only such a
   * change replaces a value of a multi-valued attribute.
   */
  replacing?: boolean;
  /** The value is limited by a circumstance ("after 2 pm", "on weekdays"): a partial statement. */
  circumstance?: string;
  /** The comparable words of the whole predicate (where an ended value may stand). */
  predicate: string[];
  /** "has a new X": a change of a single thing, an addition to a multi-valued one. */
  newThing?: boolean;
  /** A progressive ("is reading X now"): what is going on, not a habit that replaced another. */
  progressive?: boolean;
  /** The predicate names someone or something (a capitalized word after the subject: "at Acme"). */
  named?: boolean;
  /** Values the fact says are over ("switched from X", "no more X", "instead of X", "left X"). */
  ends: string[][];
  /** What could not be read, when something could not. */
  note?: string;
}

/** Words after "went" / "turned" that make them verbs of motion, not of change ("went to"). */
export const PARTICLES = new Set([
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
export const CIRCUMSTANCES = new Set([
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
export const WORK_UNITS = new Set([
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

export const PREPOSITIONS = new Set(["at", "of", "in", "for", "on", "from", "with", "to", "by"]);

export const SELF_SUBJECT: SubjectPhrase = { nodes: [{ words: [], self: true }] };

/** Leading labels that are not attributes ("Update: the user moved to Kiel"). */
export const SKIPPED_LABELS = new Set([
  "update",
  "note",
  "fyi",
  "correction",
  "reminder",
  "fact",
  "memory",
  "important",
  "ps",
  "news",
  "big",
  "quick",
  "small",
  "good",
  "great",
  "bad",
  "sad",
  "heads",
  "up",
  "btw",
  "also",
  "so",
  "anyway",
]);

/** Words that start a time phrase, never a value. */
const TIME_WORDS = new Set([
  "last",
  "this",
  "next",
  "ago",
  "yesterday",
  "today",
  "tonight",
  "recently",
  "lately",
  "nowadays",
  "since",
  "until",
  "every",
  "each",
]);

/** The value starting at `at`: up to a break word or punctuation. */
export function readValue(
  words: readonly FactWord[],
  at: number,
): { words: FactWord[]; next: number } {
  const value: FactWord[] = [];
  let index = at;
  for (; index < words.length; index++) {
    const word = words[index]!;
    if (value.length > 0 && VALUE_BREAKS.has(word.lower)) break;
    // "stopped painting last year": a time phrase where the value would start is no value
    if (value.length === 0 && TIME_WORDS.has(word.lower)) break;
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

export const single = (attribute: AttributeDefinition) => ({
  attribute: attribute.id,
  cardinality: attribute.cardinality,
});
