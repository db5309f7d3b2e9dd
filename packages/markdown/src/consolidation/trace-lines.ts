import { isStopWord, porterStem } from "@memory/core";

/**
 * The tracing rule of consolidation (README, "Consolidation"): a line the model adds or changes
 * must be made of what the sources say.
 *
 * - Normalisation: Unicode NFKC, lower case; every run of characters that are not letters or
 *   digits (punctuation, Markdown syntax, whitespace) separates words.
 * - Content words: the words left after dropping English stop words, one-letter words and the
 *   words that frame a memory in the third person (`user`, `assistant`, `agent`: "The user ..."
 *   of a fact the log wrote as "I ..."), each reduced to its Porter stem (`moved`, `moves` -> `move`), so inflection does not matter. Numbers
 *   are content words: a changed date or amount does not trace.
 * - Clauses: the line is split at `.`, `;`, `!`, `?`, `,`, `:` and at the words `and`/`but`, so a
 *   line may combine facts from several sources.
 * - A clause traces when **every** one of its content words is in **one single source unit**: a
 *   line of a source file (an entry: its key and content) or a paragraph of free text. Words of
 *   scripts written without spaces (CJK) are found as substrings of the unit. A clause with no
 *   content word traces.
 * - A line traces when every clause traces (each may use another unit, of any source file).
 *
 * Strict on purpose: a new word (a place, a name, a number) that no source holds is exactly what
 * a model invents. A reworded line ("Lyon is where the user moved") still traces.
 */

const WORD = /[\p{L}\p{N}]+/gu;
const SCRIPT_WITHOUT_SPACES =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}]/u;
const FRAMING = new Set(["user", "users", "assistant", "agent"]);
const CLAUSE_BREAK = /[.;!?,:]+(?:\s|$)|\s(?:and|but)\s/giu;

/** The normalised words of a text, in order. */
export function normalizedWords(text: string): string[] {
  return text.normalize("NFKC").toLowerCase().match(WORD) ?? [];
}

/** The content words of a text (stop words and one-letter words dropped, stemmed). */
export function contentWords(text: string): string[] {
  const out: string[] = [];
  for (const word of normalizedWords(text)) {
    if (isStopWord(word) || FRAMING.has(word)) continue;
    if (word.length === 1 && !/\p{N}/u.test(word) && !SCRIPT_WITHOUT_SPACES.test(word)) continue;
    out.push(SCRIPT_WITHOUT_SPACES.test(word) ? word : porterStem(word));
  }
  return out;
}

/** A source unit, prepared for lookups. */
export interface TraceUnit {
  /** Where it comes from (`memory/2026-11-24.md:3`). */
  origin: string;
  words: ReadonlySet<string>;
  /** The normalised words joined, for substring lookups of CJK words. */
  joined: string;
}

export function traceUnit(origin: string, text: string): TraceUnit {
  return {
    origin,
    words: new Set(contentWords(text)),
    joined: normalizedWords(text).join(""),
  };
}

/** The clauses of a line (see the rule above). */
export function clausesOf(text: string): string[] {
  return text
    .split(CLAUSE_BREAK)
    .map((clause) => clause.trim())
    .filter((clause) => clause !== "");
}

function covers(unit: TraceUnit, words: readonly string[]): boolean {
  return words.every(
    (word) =>
      unit.words.has(word) || (SCRIPT_WITHOUT_SPACES.test(word) && unit.joined.includes(word)),
  );
}

/** How a line traces: the unit of each clause, or the first clause no unit covers. */
export type TraceResult =
  | { traced: true; origins: string[] }
  | { traced: false; clause: string; missing: string[] };

/** Traces a line to the units (see the rule above). */
export function traceLine(text: string, units: readonly TraceUnit[]): TraceResult {
  const origins: string[] = [];
  for (const clause of clausesOf(text)) {
    const words = contentWords(clause);
    if (words.length === 0) continue;
    const unit = units.find((candidate) => covers(candidate, words));
    if (unit) {
      origins.push(unit.origin);
      continue;
    }
    // For the message: the words that the closest unit lacks.
    let missing = words;
    for (const candidate of units) {
      const lacking = words.filter((word) => !covers(candidate, [word]));
      if (lacking.length < missing.length) missing = lacking;
    }
    return { traced: false, clause, missing: [...new Set(missing)] };
  }
  return { traced: true, origins: [...new Set(origins)] };
}
