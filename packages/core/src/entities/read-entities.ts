import { isStopWord } from "../algorithms/stop-words.js";
import { entityId } from "./entity-name.js";
import {
  CALENDAR_WORDS,
  HONORIFICS,
  LABEL_WORDS,
  NAME_JOINERS,
  NEVER_NAMES,
  SENTENCE_STARTERS,
} from "./entity-words.js";

/** How a mention was read. */
export type MentionSource = "speaker" | "name";

/** One entity named in a text: its id (`entityId`), the name as written, and how it was read. */
export interface EntityMention {
  id: string;
  /** The name as written, without a possessive ending ("Melanie's" -> "Melanie"). */
  name: string;
  source: MentionSource;
}

interface Token {
  text: string;
  /** First word of a sentence, a line or a speaker's turn: capitalised whatever it is. */
  initial: boolean;
  /** Punctuation (or a line break) between this token and the one before: a name stops there. */
  breakBefore: boolean;
}

// A word: letters and digits, inner apostrophes, hyphens, periods ("U.S.") and "&" ("AT&T"),
// and a trailing apostrophe ("James'").
const WORD = /[\p{L}\p{N}]+(?:['\u2019.\-&][\p{L}\p{N}]+)*['\u2019]?/gu;
// "Caroline: ..." at the start of a line, one to three capitalised words.
const SPEAKER =
  /^[ \t]*(\p{Lu}[\p{L}'\u2019-]*(?:[ \t]+\p{Lu}[\p{L}'\u2019-]*){0,2})[ \t]*:(?!\/\/)[ \t]*/u;
const POSSESSIVE = /['\u2019]s?$/u;
/** Longest name kept, in words: longer capitalised runs are headlines or titles of text. */
const MAX_NAME_WORDS = 6;

function capitalised(word: string): boolean {
  return /^\p{Lu}/u.test(word) || /^\p{Ll}+\p{Lu}/u.test(word); // "Melanie", "iPhone"
}

function folded(word: string): string {
  return word.toLowerCase().replace(/\u2019/gu, "'");
}

/** The words of one line (after any speaker label), with sentence starts and breaks marked. */
function tokens(line: string): Token[] {
  const found: Token[] = [];
  let last = 0;
  let sentenceStart = true;
  for (const match of line.matchAll(WORD)) {
    const gap = line.slice(last, match.index);
    const previous = found[found.length - 1];
    const endsSentence =
      /[.!?]/u.test(gap) &&
      !(previous && HONORIFICS.has(folded(previous.text)) && /^\.\s*$/u.test(gap));
    // An opening quote or bracket starts a title or an aside: its first word is capitalised.
    if (endsSentence || /[:;"\u201c(\u2014]/u.test(gap)) sentenceStart = true;
    found.push({
      text: match[0],
      initial: sentenceStart,
      breakBefore: found.length === 0 || /[^\s]/u.test(gap.replace(/['\u2019]/gu, "")),
    });
    sentenceStart = false;
    last = match.index + match[0].length;
  }
  return found;
}

/** Runs of capitalised words, joined across "of", "de", "&"... when a capital follows. */
function capitalisedRuns(words: readonly Token[]): Token[][] {
  const runs: Token[][] = [];
  let run: Token[] = [];
  const close = () => {
    if (run.length > 0) runs.push(run);
    run = [];
  };
  for (let index = 0; index < words.length; index++) {
    const word = words[index]!;
    if (word.breakBefore) close();
    if (capitalised(word.text)) {
      run.push(word);
      // "Melanie's sister": the possessive ends the name.
      if (POSSESSIVE.test(word.text) && run.length > 0) close();
      continue;
    }
    // A joiner ("of", "of the") joins only when a capitalised word follows it.
    let ahead = index + 1;
    while (ahead < words.length && NAME_JOINERS.has(folded(words[ahead]!.text))) ahead++;
    const next = words[ahead];
    const joins =
      run.length > 0 &&
      NAME_JOINERS.has(folded(word.text)) &&
      next !== undefined &&
      !words.slice(index + 1, ahead + 1).some((later) => later.breakBefore) &&
      capitalised(next.text);
    // "Tesla Model 3" (a year is no part of a name: "May 2023"; after one word a number is more
    // often a count: "Rosa 3 times").
    const number = run.length > 1 && /^\d{1,3}$/u.test(word.text);
    if (joins || number) run.push(word);
    else close();
  }
  close();
  return runs;
}

/**
 * A sentence-opening word that is an ordinary word: a starter, an -ing or -ed form, or a long -ly
 * adverb ("Luckily"; short -ly words are names as often: "Emily", "Kelly").
 */
function ordinaryWord(lower: string): boolean {
  return (
    SENTENCE_STARTERS.has(lower) ||
    /(?:ing|ed)$/u.test(lower) ||
    (lower.endsWith("ly") && lower.length > 6)
  );
}

/** Words that may stand in front of a name and are not part of it ("Hey Mel", "Dr. Lee"). */
function leadingNoise(word: Token, position: number, length: number): boolean {
  const lower = folded(word.text);
  if (NEVER_NAMES.has(lower) || HONORIFICS.has(lower) || isStopWord(lower)) return true;
  // "Last Friday Caroline ...": a date in front of a name.
  if (CALENDAR_WORDS.has(lower) && position < length - 1) return true;
  return word.initial && ordinaryWord(lower);
}

/**
 * Whether a single capitalised word is a name. A sentence's first word is capitalised anyway:
 * it counts when nothing says it is an ordinary word (a starter, a stop word, the same word in
 * lower case elsewhere in the text, an -ly/-ing/-ed form).
 */
function singleName(word: Token, lowerWords: ReadonlySet<string>): boolean {
  const lower = folded(word.text).replace(POSSESSIVE, "");
  if (NEVER_NAMES.has(lower) || CALENDAR_WORDS.has(lower) || isStopWord(lower)) return false;
  if (HONORIFICS.has(lower) || lower.length < 2) return false;
  if (!word.initial) return true;
  if (lowerWords.has(lower)) return false;
  return !ordinaryWord(lower) || /^\p{Lu}{2,}/u.test(word.text);
}

/** The name a run spells, or undefined when the run is no name. */
function runName(run: Token[], lowerWords: ReadonlySet<string>): string | undefined {
  let start = 0;
  while (start < run.length - 1 && leadingNoise(run[start]!, start, run.length)) start++;
  let words = run.slice(start);
  while (words.length > 0 && NAME_JOINERS.has(folded(words[words.length - 1]!.text)))
    words = words.slice(0, -1);
  if (words.length === 0 || words.length > MAX_NAME_WORDS) return undefined;
  if (words.length === 1 && !singleName(words[0]!, lowerWords)) return undefined;
  if (words.every((word) => CALENDAR_WORDS.has(folded(word.text)))) return undefined;
  return words
    .map((word) => word.text)
    .join(" ")
    .replace(POSSESSIVE, "");
}

/** The text's people, places, organisations and products by name, each once, in reading order. */
export function readEntities(text: string): EntityMention[] {
  const found = new Map<string, EntityMention>();
  const add = (name: string, source: MentionSource) => {
    const id = entityId(name);
    if (id !== undefined && !found.has(id)) found.set(id, { id, name, source });
  };
  const lowerWords = new Set<string>();
  for (const match of text.matchAll(WORD))
    if (!capitalised(match[0])) lowerWords.add(folded(match[0]));
  for (const line of text.split(/\r?\n/u)) {
    const label = SPEAKER.exec(line);
    let body = line;
    if (label && !LABEL_WORDS.has(folded(label[1]!))) {
      add(label[1]!, "speaker");
      body = line.slice(label[0].length);
    }
    for (const run of capitalisedRuns(tokens(body))) {
      const name = runName(run, lowerWords);
      if (name !== undefined) add(name, "name");
    }
  }
  return [...found.values()];
}
