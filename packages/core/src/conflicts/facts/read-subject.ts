import { attributeOfNoun, isRelation, ROLES } from "./attribute-table.js";
import {
  ADDITIVE,
  ADVERBS,
  AUXILIARIES,
  CHANGE,
  COPULAS,
  DETERMINERS,
  ENDING_VERBS,
  isCommonVerb,
  NEGATIONS,
  PRONOUNS,
  SELF_WORDS,
} from "./fact-lexicon.js";
import { type FactWord, isIrregularVerb, normalizeWord } from "./fact-words.js";

/** One link of a possessive chain: "sister Maya" in "the user's sister Maya". */
export interface SubjectNode {
  /** Normalized common words (head noun and its modifiers): ["sister"], ["mobile", "app"]. */
  words: string[];
  /** The name, normalized and space-joined ("maya", "crate and barrel", "dr lee"). */
  name?: string;
  /** The user ("I", "my", "we", "the user"). */
  self?: boolean;
}

/** A subject as read: the chain from the owner to the thing talked about. */
export interface SubjectPhrase {
  nodes: SubjectNode[];
  /** A pronoun ("she", "they"): who it is cannot be known from the text alone. */
  unresolved?: string;
}

/** Display form: "@user > sister maya". */
export function subjectText(subject: SubjectPhrase): string {
  if (subject.unresolved !== undefined) return `?${subject.unresolved}`;
  return subject.nodes
    .map((node) =>
      node.self ? "@user" : [...node.words, ...(node.name ? [node.name] : [])].join(" "),
    )
    .join(" > ");
}

/** Modifiers that do not change who or what a subject is ("the user's new manager"). */
const SUBJECT_NOISE = new Set([
  "main",
  "everyday",
  "new",
  "current",
  "present",
  "latest",
  "usual",
  "regular",
  "go-to",
]);

/**
 * Whether a word starts the predicate: an auxiliary, copula, negation, marker or adverb, an
 * ending verb, an irregular verb form, a common verb, or an unknown lower-case word ending in
 * -ed, or in -s when the next word is not itself a verb (then it is a plural noun: "the user's
 * parents live"). A word right after a determiner or a possessive is a noun ("the user's work
 * email").
 */
/** Whether a sentence starts with its predicate (an instruction or a fragment: "Always use tabs", "Moved to Kiel"). */
export function opensWithPredicate(word: FactWord | undefined): boolean {
  if (word === undefined) return false;
  const lower = word.lower;
  if (DETERMINERS.has(lower) || SELF_WORDS.has(lower) || PRONOUNS.has(lower)) return false;
  return (
    ADVERBS.has(lower) ||
    NEGATIONS.has(lower) ||
    ADDITIVE.has(lower) ||
    ENDING_VERBS.has(lower) ||
    // a past-tense fragment ("Moved to Kiel", "Bought a car"); a bare verb ("turn 3") is no fact
    (isIrregularVerb(lower) && !COPULAS.has(lower)) ||
    (/ed$/u.test(lower) && isCommonVerb(word.norm))
  );
}

export function startsPredicate(
  words: readonly FactWord[],
  at: number,
  afterNounSlot: boolean,
): boolean {
  const word = words[at];
  if (word === undefined) return false;
  const lower = word.lower;
  if (word.raw.includes("'") && /n't$/u.test(word.raw)) return true;
  if (COPULAS.has(lower) || AUXILIARIES.has(lower) || NEGATIONS.has(lower)) return true;
  if (afterNounSlot || word.capitalized || word.possessive) return false;
  if (ADVERBS.has(lower) || ADDITIVE.has(lower) || (CHANGE.has(lower) && lower !== "new"))
    return true;
  if (ENDING_VERBS.has(lower) || lower === "used") return true;
  if (isIrregularVerb(lower)) return true;
  const next = words[at + 1];
  const nextIsVerb =
    next !== undefined &&
    (COPULAS.has(next.lower) ||
      AUXILIARIES.has(next.lower) ||
      isCommonVerb(next.norm) ||
      /n't$/u.test(next.raw));
  if (lower === "these" && next?.lower === "days") return true;
  if (isCommonVerb(word.norm)) {
    // "the user's team lead is", "the office chair came": a noun before a verb is no verb.
    return !(nextIsVerb || (next !== undefined && isIrregularVerb(next.lower)));
  }
  if (/ed$/u.test(lower) && lower.length > 4) return true;
  if (/[^su]s$/u.test(lower) && !nextIsVerb && !isRelation(word.norm)) return true;
  return false;
}

/**
 * A capitalized word that is a table noun, not a name: an acronym ("GP", "TV", "HR") anywhere,
 * any table noun at the start of a sentence ("Dentist", "Mom's phone").
 */
function namesAnAttribute(word: FactWord, first: boolean): boolean {
  const acronym = /^\p{Lu}{2,4}$/u.test(word.raw.replace(/'s$/u, ""));
  if (!acronym && !first) return false;
  return attributeOfNoun([word.norm]) !== undefined || isRelation(word.norm);
}

/** Whether a word can open an owner after "of" ("of Acme", "of the user's employer", "of my"). */
const startsOwner = (word: FactWord | undefined) =>
  word !== undefined &&
  (word.capitalized || DETERMINERS.has(word.lower) || SELF_WORDS.has(word.lower));

const JOINT_SELF = new Set(["i", "me", "we"]);

const PLACE_PREPOSITIONS = new Set(["from", "in", "at", "near", "on", "with"]);

/** Longest subject looked at; past it the subject is not read. */
const MAX_SUBJECT_WORDS = 12;

/**
 * Reads the subject noun phrase that starts at `start`: determiners, "my"/"our"/"the user's",
 * possessive chains ("the user's sister Maya's dentist"), names (capitalized words, "and" and
 * titles inside: "Crate and Barrel", "Dr. Lee"). Returns where the predicate starts.
 */
/** A verb's -ing form opening a phrase ("Representing", "Losing"); short words ("King") are not. */
function isGerund(word: FactWord | undefined): boolean {
  return word !== undefined && /^\p{L}{3,}ing$/u.test(word.lower) && !word.possessive;
}

export function readSubject(
  words: readonly FactWord[],
  start: number,
): { subject: SubjectPhrase; end: number } | undefined {
  const nodes: SubjectNode[] = [];
  let node: SubjectNode = { words: [] };
  let nounSlot = true; // right after a determiner or possessive, a noun is expected
  let at = start;
  const close = () => {
    if (node.words.length > 0 || node.name !== undefined || node.self) nodes.push(node);
    node = { words: [] };
  };
  // "Losing my job was hard", "Representing diversity in my art is important": an activity
  // with its object is no one with a fact ("Caching is enabled" keeps its subject).
  if (isGerund(words[start]) && words[start + 1] && !startsPredicate(words, start + 1, true)) {
    return undefined;
  }
  for (; at < words.length && at - start < MAX_SUBJECT_WORDS; at++) {
    const word = words[at]!;
    const lower = word.lower;
    if (
      at > start &&
      startsPredicate(
        words,
        at,
        nounSlot && !COPULAS.has(lower) && !AUXILIARIES.has(lower) && !NEGATIONS.has(lower),
      )
    )
      break;
    // "The user and Anna moved", "my husband and I live": a subject that includes the user
    if (lower === "and" && at > start) {
      const next = words[at + 1];
      const userSoFar = nodes.length === 0 && node.self === true && node.words.length === 0;
      if (next !== undefined && (userSoFar || JOINT_SELF.has(next.lower))) {
        const partner = JOINT_SELF.has(next.lower) ? undefined : readSubject(words, at + 1);
        return { subject: { nodes: [{ words: [], self: true }] }, end: partner?.end ?? at + 2 };
      }
    }
    if (PRONOUNS.has(lower) && node.words.length === 0 && node.name === undefined) {
      return { subject: { nodes: [], unresolved: lower }, end: at + 1 };
    }
    if (SELF_WORDS.has(lower)) {
      node.self = true;
      node.words = [];
      if (lower === "my" || lower === "our" || word.possessive) {
        close();
        nounSlot = true;
      } else nounSlot = false;
      continue;
    }
    // "The CEO of Acme", "the price of the Pro plan": the owner comes after "of".
    if (lower === "of" && nodes.length === 0 && node.name === undefined && node.words.length > 0) {
      const owner = startsOwner(words[at + 1]) ? readSubject(words, at + 1) : undefined;
      if (owner !== undefined && owner.subject.nodes.length > 0) {
        return { subject: { nodes: [...owner.subject.nodes, node] }, end: owner.end };
      }
    }
    if (DETERMINERS.has(lower) && node.words.length === 0 && node.name === undefined) {
      nounSlot = true;
      continue;
    }
    // "from Cardiff" in "the user's nephew from Cardiff" says which nephew; it names no one.
    const inModifier = PLACE_PREPOSITIONS.has(words[at - 1]?.lower ?? "") && node.words.length > 0;
    const nameWord =
      (word.capitalized &&
        !inModifier &&
        !(at === start && DETERMINERS.has(lower)) &&
        ROLES[word.norm] === undefined &&
        !namesAnAttribute(word, at === start)) ||
      (node.name !== undefined &&
        (lower === "and" || lower === "&" || lower === "of") &&
        words[at + 1]?.capitalized === true);
    if (nameWord) {
      const part = lower;
      node.name = node.name === undefined ? part : `${node.name} ${part}`;
    } else if (
      node.self &&
      node.words.length === 0 &&
      node.name === undefined &&
      !word.possessive
    ) {
      // "I" followed by a noun is not a subject phrase ("I guitar"): end here.
      break;
    } else if (SUBJECT_NOISE.has(lower)) {
      continue;
    } else {
      node.words.push(word.norm);
    }
    nounSlot = false;
    if (word.possessive) {
      close();
      nounSlot = true;
    } else if (word.after === "," || word.after === ":" || word.after === ";") {
      at++;
      break;
    }
  }
  close();
  if (nodes.length === 0) return undefined;
  return { subject: { nodes }, end: at };
}

/**
 * Whether two subjects are the same: the last links match (equal names when both are named,
 * otherwise one link's words contain the other's and the names do not differ), and, unless a
 * name settles it, the owners before them match the same way.
 */
export function sameSubject(a: SubjectPhrase, b: SubjectPhrase): boolean {
  if (a.unresolved !== undefined || b.unresolved !== undefined) return false;
  let i = a.nodes.length - 1;
  let j = b.nodes.length - 1;
  for (; i >= 0 && j >= 0; i--, j--) {
    const x = a.nodes[i]!;
    const y = b.nodes[j]!;
    if (x.self || y.self) {
      if (!(x.self && y.self)) return false;
      continue;
    }
    if (x.name !== undefined && y.name !== undefined) {
      // "Project Atlas" is "the user's project Atlas": the same words, one more capitalized
      if (x.name !== y.name && !sameWords(x, y)) return false;
      // A name identifies ("Maya" is "the user's sister Maya") unless both say whose it is and
      // the owners differ ("my son Alfie" is not "my friend Kofi's son Alfie").
      if (i === 0 || j === 0) return true;
      return sameSubject({ nodes: a.nodes.slice(0, i) }, { nodes: b.nodes.slice(0, j) });
    }
    // A name on one side counts as a modifier ("Android app" vs "web app" differ).
    const xWords = [...x.words, ...(x.name?.split(" ") ?? [])];
    const yWords = [...y.words, ...(y.name?.split(" ") ?? [])];
    const xInY = xWords.every((word) => yWords.includes(word));
    const yInX = yWords.every((word) => xWords.includes(word));
    if (x.words.length === 0 || y.words.length === 0) {
      // one link is only a name, the other only words: not comparable
      return false;
    }
    if (!xInY && !yInX) return false;
  }
  return i < 0 && j < 0;
}

function sameWords(x: SubjectNode, y: SubjectNode): boolean {
  const xs = new Set([...x.words, ...(x.name?.split(" ").map(normalizeWord) ?? [])]);
  const ys = new Set([...y.words, ...(y.name?.split(" ").map(normalizeWord) ?? [])]);
  return xs.size === ys.size && [...xs].every((word) => ys.has(word));
}
