import type { QueryTerm, TextLanguage } from "@memory/api";
import { porterStem } from "../algorithms/porter-stemmer.js";
import { cjkBigrams } from "../algorithms/search-terms.js";
import { isStopWord } from "../algorithms/stop-words.js";
import { textMemo } from "../algorithms/text-memo.js";

/**
 * The one way text becomes search terms, at index time and at query time, on every backend.
 * Backends index the terms this module produces (SQLite FTS5 with its `ascii` tokenizer over
 * space-joined terms, PostgreSQL `to_tsvector('simple', ...)`), so both agree by construction:
 * the same text gives the same terms, the same term frequencies and the same BM25.
 *
 * Steps: NFKC, lower case, diacritics and other combining marks removed (decomposed, composed
 * and heavily marked spellings of a word become one term), words split on anything that is not
 * a letter or digit, English words stemmed with Porter ("meetings" -> "meet"), CJK runs cut
 * into overlapping bigrams ("記憶力" -> "記憶", "憶力").
 */

// Han, Hiragana, Katakana, Hangul (incl. half-width forms and compatibility ideographs).
const CJK_RUN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u30fc]+/gu;
const WORD = /[\p{L}\p{N}\p{M}]+/gu;
const QUERY_WORD = /[\p{L}\p{N}\p{M}]+(\*)?/gu;
const MARKS = /\p{M}+/gu;
const NEEDS_FOLDING = /[^\x00-\x7f]/;

export const TEXT_LANGUAGES: readonly TextLanguage[] = ["english", "none"];

/**
 * Longest term: longer runs (hex dumps, base64) are cut to this many characters on both sides,
 * so they stay searchable by their start and fit every index (PostgreSQL lexemes < 2 KiB).
 */
export const MAX_TERM_LENGTH = 128;

/** Most terms taken from one query; longer queries are cut (they add noise, not recall). */
export const MAX_QUERY_TERMS = 32;

const keep = (word: string) => word;

const porterStemCached = textMemo(porterStem, 50_000);

/** Lower case without marks: "Café", "Cafe\u0301" and "CAFÉ" all give "cafe". */
function fold(word: string): string {
  const lower = word.toLowerCase();
  const folded = NEEDS_FOLDING.test(lower)
    ? lower.normalize("NFD").replace(MARKS, "").normalize("NFC")
    : lower;
  return folded.length > MAX_TERM_LENGTH ? [...folded].slice(0, MAX_TERM_LENGTH).join("") : folded;
}

/** Splits one folded word into non-CJK parts and CJK bigrams, in text order. */
function* parts(word: string): Generator<{ text: string; cjk: boolean }> {
  let last = 0;
  for (const run of word.matchAll(CJK_RUN)) {
    const before = word.slice(last, run.index);
    if (before) yield { text: before, cjk: false };
    for (const gram of cjkBigrams(run[0])) yield { text: gram, cjk: true };
    last = run.index + run[0].length;
  }
  const rest = word.slice(last);
  if (rest) yield { text: rest, cjk: false };
}

const ASCII_ONLY = /^[\x00-\x7f]*$/;
const ASCII_SEPARATORS = /[^a-z0-9]+/;

/** The index terms of a text, repeats kept (BM25 counts them), in text order. */
export function analyzeText(text: string, language: TextLanguage = "english"): string[] {
  const stem = language === "english" ? porterStemCached : keep;
  const terms: string[] = [];
  // Most stored text is ASCII: split and stem directly (the same result as the general path,
  // measured 4x faster; it runs on every write).
  if (ASCII_ONLY.test(text)) {
    for (const word of text.toLowerCase().split(ASCII_SEPARATORS)) {
      if (word !== "")
        terms.push(stem(word.length > MAX_TERM_LENGTH ? word.slice(0, MAX_TERM_LENGTH) : word));
    }
    return terms;
  }
  for (const [raw] of text.normalize("NFKC").matchAll(WORD)) {
    const word = fold(raw);
    for (const part of parts(word)) terms.push(part.cjk ? part.text : stem(part.text));
  }
  return terms;
}

/**
 * Longest indexed term text. A PostgreSQL tsvector holds at most 1 MiB of lexemes and 16,383
 * positions; every backend cuts at the same place so BM25 agrees (the first 256 Ki characters
 * of a huge entry stay searchable).
 */
export const MAX_INDEXED_TERMS_LENGTH = 256 * 1024;

/** Number of terms in a space-joined term list (an entry's BM25 length); 0 for "". */
export function countIndexedTerms(terms: string): number {
  if (terms === "") return 0;
  let count = 1;
  for (let i = 0; i < terms.length; i++) if (terms.charCodeAt(i) === 32) count++;
  return count;
}

/** The text a backend indexes for an entry: the terms of its key and content, space-joined. */
export function indexedTerms(
  key: string,
  content: string,
  language: TextLanguage = "english",
): string {
  const keyTerms = analyzeText(key, language);
  const contentTerms = analyzeText(content, language);
  const text = [...keyTerms, ...contentTerms].join(" ");
  if (text.length <= MAX_INDEXED_TERMS_LENGTH) return text;
  const cut = text.lastIndexOf(" ", MAX_INDEXED_TERMS_LENGTH);
  return text.slice(0, cut > 0 ? cut : MAX_INDEXED_TERMS_LENGTH);
}

/**
 * The terms of a query, duplicates dropped. Query-language syntax (`"`, `:`, `(`, `-`, `NEAR`,
 * `AND`...) can only ever be an ordinary word. `wild*` (a star right after a word) is a prefix
 * term: it matches index terms starting with the word as typed (folded, not stemmed), and the
 * word's own stem (see {@link QueryTerm.stem}).
 */
export function analyzeQuery(query: string, language: TextLanguage = "english"): QueryTerm[] {
  const english = language === "english";
  const terms: QueryTerm[] = [];
  const seen = new Set<string>();
  for (const match of query.normalize("NFKC").matchAll(QUERY_WORD)) {
    const word = fold(match[0].replace(/\*$/, ""));
    const list = [...parts(word)];
    list.forEach((part, index) => {
      const prefix = !part.cjk && match[1] === "*" && index === list.length - 1;
      const stemmed = part.cjk || !english ? part.text : porterStemCached(part.text);
      const text = prefix ? part.text : stemmed;
      const id = `${text}\u0000${prefix}`;
      if (text === "" || seen.has(id) || terms.length >= MAX_QUERY_TERMS) return;
      seen.add(id);
      const stop = english && !part.cjk && !prefix && isStopWord(part.text);
      terms.push(
        prefix && stemmed !== text ? { text, prefix, stem: stemmed, stop } : { text, prefix, stop },
      );
    });
  }
  return terms;
}

/**
 * The terms a search uses: stop words are dropped ("what is the name of my dog" searches
 * "name", "dog"), unless the query is made of nothing else, in which case they are kept (and
 * their relevance is discounted, see relevance.ts).
 */
export function searchTerms(terms: readonly QueryTerm[]): QueryTerm[] {
  const content = terms.filter((term) => !term.stop);
  return content.length > 0 ? content : [...terms];
}

/**
 * True when an index term matches a query term: exactly, or for a prefix term by prefix or
 * equal to the typed word's stem. Backends' query builders express the same rule (FTS5
 * `"wild"* OR "stem"`, tsquery `'wild':* | 'stem'`).
 */
export function termMatches(indexTerm: string, term: QueryTerm): boolean {
  if (!term.prefix) return indexTerm === term.text;
  return indexTerm.startsWith(term.text) || indexTerm === term.stem;
}
