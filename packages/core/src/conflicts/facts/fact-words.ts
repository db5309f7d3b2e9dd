import { lookupTable } from "../../algorithms/lookup-table.js";
import { porterStem } from "../../algorithms/porter-stemmer.js";
import { textMemo } from "../../algorithms/text-memo.js";

/** One word of a text as the fact reader sees it. */
export interface FactWord {
  /** As typed (apostrophes kept: "user's", "doesn't"). */
  raw: string;
  /** Lower case, without a possessive `'s`. */
  lower: string;
  /** Spelling variants unified (favourite -> favorite) and Porter-stemmed: what comparisons use. */
  norm: string;
  /** Ends with a possessive `'s` / `s'`. */
  possessive: boolean;
  /** Starts with an upper-case letter (a name, or the first word of a sentence). */
  capitalized: boolean;
  /** Punctuation that follows the word (",", ":", ";", "." or ""). */
  after: string;
}

/**
 * Spelling variants the rules of `americanSpelling` do not cover (licence, grey, programme) and
 * informal or synonymous words, mapped to one form before stemming. Extend here; the stemmer does
 * the rest (inflections: lives / lived / living -> live).
 */
const SPELLING_VARIANTS = lookupTable<string>({
  programme: "program",
  grey: "gray",
  mum: "mom",
  mummy: "mom",
  mother: "mom",
  father: "dad",
  daddy: "dad",
  boss: "manager",
  jewellery: "jewelry",
  licence: "license",
  practise: "practice",
  doc: "doctor",
  gp: "doctor",
  physician: "doctor",
  spouse: "partner",
  boyfriend: "partner",
  girlfriend: "partner",
  kid: "child",
  kids: "children",
  vw: "volkswagen",
  soccer: "football",
  supply: "supplier",
  "plant-based": "vegan",
  chevy: "chevrolet",
});

/** Irregular verb forms mapped to the stem of their base form ("drove" reads as "drive"). */
const IRREGULAR_VERBS = lookupTable<string>({
  am: "be",
  is: "be",
  are: "be",
  was: "be",
  were: "be",
  been: "be",
  being: "be",
  has: "have",
  had: "have",
  does: "do",
  did: "do",
  done: "do",
  went: "go",
  gone: "go",
  goes: "go",
  bought: "buy",
  sold: "sell",
  got: "get",
  gotten: "get",
  took: "take",
  taken: "take",
  left: "leav",
  became: "becom",
  began: "begin",
  begun: "begin",
  drove: "drive",
  driven: "drive",
  drank: "drink",
  drunk: "drink",
  ate: "eat",
  eaten: "eat",
  wrote: "write",
  written: "write",
  ran: "run",
  met: "meet",
  made: "make",
  kept: "keep",
  taught: "teach",
  spoke: "speak",
  spoken: "speak",
  grew: "grow",
  grown: "grow",
  found: "find",
  gave: "give",
  given: "give",
  held: "hold",
  led: "lead",
  paid: "pai",
  sent: "send",
  spent: "spend",
  won: "win",
  wore: "wear",
  chose: "choos",
  chosen: "choos",
  broke: "break",
  broken: "break",
  flew: "fly",
  flown: "fly",
  fell: "fall",
  forgot: "forget",
  rode: "ride",
  ridden: "ride",
  swam: "swim",
  sang: "sing",
  thought: "think",
  brought: "bring",
  built: "build",
  felt: "feel",
  heard: "hear",
  lost: "lose",
  saw: "see",
  seen: "see",
  stood: "stand",
  understood: "understand",
  wed: "marri",
  came: "come",
  come: "come",
});

/** Whether a lower-case word is an irregular verb form ("drove", "bought", "was"). */
export function isIrregularVerb(lower: string): boolean {
  return Object.hasOwn(IRREGULAR_VERBS, lower) || rePrefixed(lower) !== undefined;
}

/** "rewrote" is "wrote" again, "rebuilt" "built": the irregular form after "re". */
function rePrefixed(lower: string): string | undefined {
  if (!lower.startsWith("re") || lower.length < 6) return undefined;
  const base = lower.slice(2);
  return Object.hasOwn(IRREGULAR_VERBS, base) && !COPULA_FORMS.has(base)
    ? IRREGULAR_VERBS[base]
    : undefined;
}

const COPULA_FORMS = new Set(["am", "is", "are", "was", "were", "been", "being", "has", "had"]);

/**
 * The comparable form of one lower-case word (spelling unified, irregular verbs, Porter),
 * remembered: a store's conflict check reads a dozen candidates' words, mostly the same.
 */
export const normalizeWord = textMemo(normalizeUncached, 50_000);

function normalizeUncached(lower: string): string {
  const irregular = IRREGULAR_VERBS[lower] ?? rePrefixed(lower);
  if (irregular !== undefined) return irregular;
  const ordinal = ORDINALS.indexOf(lower);
  if (ordinal >= 0) return String(ordinal + 1); // "fourth of July" is "July 4th"
  const plain = lower.normalize("NFD").replace(/\p{M}/gu, ""); // café -> cafe
  const spelled = SPELLING_VARIANTS[plain] ?? americanSpelling(plain);
  return porterStem(spelled);
}

// British "-our" words (a closed list: "four", "tour" and "hour" are not among them), "-ise"
// verbs and "-re" nouns, with their derived forms ("neighbourhood", "organisation").
const OUR_STEMS =
  /^(colo|flavo|neighbo|favo|behavio|hono|labo|humo|harbo|rumo|savo|odo|armo|vapo|endeavo|parlo|glamo)ur/u;
const ISE =
  /^(organ|real|recogn|special|prior|personal|categor|optim|util|apolog|emphas|summar|minim|maxim|final|custom|author|standard|visual|critic|memor|modern)is(e|ed|es|ing|ation|ations)$/u;
const RE_NOUNS = /^(cent|theat|met|lit|fib|calib|somb)re(s?)$/u;

function americanSpelling(word: string): string {
  return word
    .replace(OUR_STEMS, "$1r")
    .replace(ISE, "$1iz$2")
    .replace(RE_NOUNS, "$1er$2")
    .replace(/^(travel|cancel|model|label|fuel|counsel|jewel)l(ed|ing|er|ers|or|ors)$/u, "$1$2");
}

// Words keep inner apostrophes, dots of abbreviations ("Dr.", "U.S.") are dropped with them,
// hyphenated words stay one word ("e-mail", "co-founder"), "@" and "." inside e-mail addresses
// and digits with separators ("555-0142", "3.5") stay together.
const WORD =
  /[\p{L}\p{N}][\p{L}\p{N}._%+-]*@[\p{L}\p{N}.-]+\.[\p{L}]{2,}|\+?\d[\d ().:-]*\d|[\p{L}\p{N}]+(?:[-'’][\p{L}\p{N}]+)*['’]?/gu;

/** Punctuation right after a word (sticky: tried where the word ends, not searched for). */
const PUNCTUATION_AFTER = /\s*([,:;.!?])/uy;

/** The words of a text in order, with the punctuation after each. */
export function factWords(text: string): FactWord[] {
  const words: FactWord[] = [];
  const expanded = expandContractions(text);
  for (const match of expanded.matchAll(WORD)) {
    const raw = match[0].replaceAll("’", "'");
    PUNCTUATION_AFTER.lastIndex = (match.index ?? 0) + match[0].length;
    const next = PUNCTUATION_AFTER.exec(expanded);
    const possessive = /'s$/iu.test(raw) || /s'$/iu.test(raw);
    const lower = raw.toLowerCase().replace(/'s$/u, "").replace(/'$/u, "");
    words.push({
      raw,
      lower,
      norm: normalizeWord(lower),
      possessive: possessive && !/^(it|that|what|there|here|he|she|who)'s$/iu.test(raw),
      capitalized: /^\p{Lu}/u.test(raw),
      after: next?.[1] ?? "",
    });
  }
  return words;
}

// "I'm", "we've", "she's": the pronoun and its verb, so "I'm a nurse" reads like "I am a nurse".
// A name's "'s" stays a possessive ("Maya's"); "n't" is read where it stands.
const CONTRACTIONS: readonly (readonly [RegExp, string])[] = [
  [/\b(i)['’]m\b/giu, "$1 am"],
  [/\b(you|we|they)['’]re\b/giu, "$1 are"],
  [/\b(i|you|we|they)['’]ve\b/giu, "$1 have"],
  [/\b(i|you|we|they|he|she|it)['’]ll\b/giu, "$1 will"],
  [/\b(i|you|we|they|he|she)['’]d\b/giu, "$1 would"],
  [/\b(he|she|it|that|there)['’]s\b/giu, "$1 is"],
];

// Multi-word titles read as the one word the role table knows ("chief executive" is a CEO).
const TITLES: readonly (readonly [RegExp, string])[] = [
  [/\bchief executive(?: officer)?\b/giu, "CEO"],
  [/\bchief (?:technology|technical) officer\b/giu, "CTO"],
  [/\bchief financial officer\b/giu, "CFO"],
  [/\bchief operating officer\b/giu, "COO"],
  [/\bmanaging director\b/giu, "MD"],
];

// What every title and contraction above needs: most texts have neither, and skip the patterns.
const MAY_HAVE_TITLE = /chief|managing/iu;
const MAY_HAVE_CONTRACTION = /['’]/u;

function expandContractions(text: string): string {
  let expanded = text;
  if (MAY_HAVE_TITLE.test(text))
    for (const [pattern, replacement] of TITLES) expanded = expanded.replace(pattern, replacement);
  if (MAY_HAVE_CONTRACTION.test(text))
    for (const [pattern, replacement] of CONTRACTIONS)
      expanded = expanded.replace(pattern, replacement);
  return expanded;
}

/** The normalized forms of a phrase as typed ("lives in" -> ["live", "in"]). */
export function normalizePhrase(phrase: string): string[] {
  return factWords(phrase).map((word) => word.norm);
}

// Ordinal words as the numbers of "4th", "3rd" (valueTerms drops the suffix).
const ORDINALS = [
  "first",
  "second",
  "third",
  "fourth",
  "fifth",
  "sixth",
  "seventh",
  "eighth",
  "ninth",
  "tenth",
  "eleventh",
  "twelfth",
];
