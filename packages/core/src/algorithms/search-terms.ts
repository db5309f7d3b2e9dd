import { isStopWord } from "./stop-words.js";

/**
 * Turning free text into search terms that are the same at index time and query time, on every
 * backend. Chinese, Japanese and Korean runs have no spaces between words, so they are indexed
 * and queried as overlapping character bigrams: "記憶力" -> "記憶", "憶力". A 2-character query
 * like "記憶" then finds "私は記憶力が良い".
 */

// Han, Hiragana, Katakana, Hangul (incl. half-width forms and compatibility ideographs).
const CJK_RUN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u30fc]+/gu;
const CJK_CHAR = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u30fc]/u;

/** True when the text contains at least one CJK character. */
export function hasCjk(text: string): boolean {
  return CJK_CHAR.test(text);
}

/** Overlapping bigrams of one CJK run; a single character gives itself. */
export function cjkBigrams(run: string): string[] {
  const chars = [...run];
  if (chars.length <= 1) return chars;
  const grams: string[] = [];
  for (let i = 0; i < chars.length - 1; i++) grams.push(chars[i]! + chars[i + 1]!);
  return grams;
}

/**
 * The extra text to index beside the content so CJK is findable by a word index: every CJK
 * run of `text` as space-separated bigrams. Empty when the text has no CJK.
 */
export function cjkIndexText(text: string): string {
  const runs = text.match(CJK_RUN);
  if (!runs) return "";
  return runs.flatMap(cjkBigrams).join(" ");
}

/**
 * Splits one word (letters, digits, marks, `_`) into lower-cased non-CJK parts and CJK bigrams,
 * in text order: "ai記憶" -> "ai", "記憶". Shared by queries and {@link indexTokens}-style indexing
 * so both sides cut text the same way.
 */
export function splitWord(word: string): { text: string; cjk: boolean }[] {
  const parts: { text: string; cjk: boolean }[] = [];
  let last = 0;
  for (const run of word.matchAll(CJK_RUN)) {
    const before = word.slice(last, run.index);
    if (before) parts.push({ text: before.toLowerCase(), cjk: false });
    for (const gram of cjkBigrams(run[0])) parts.push({ text: gram, cjk: true });
    last = run.index + run[0].length;
  }
  const rest = word.slice(last);
  if (rest) parts.push({ text: rest.toLowerCase(), cjk: false });
  return parts;
}

/** True when a query means "no search, most recent entries": empty, whitespace or a bare `*`. */
export function isMatchAllQuery(query: string): boolean {
  const trimmed = query.trim();
  return trimmed === "" || /^\*+$/.test(trimmed);
}

/** Escapes `%`, `_` and the escape character `\` for a `LIKE ... ESCAPE '\'` pattern. */
export function escapeLike(word: string): string {
  return word.replace(/[\\%_]/g, (char) => `\\${char}`);
}

/**
 * Up to 8 keywords of a query for the LIKE fallback (longest first, at least 2 characters,
 * English stop words left out: "what is the" must not match every entry containing "is").
 */
export function likeFallbackKeywords(query: string, max = 8): string[] {
  const words = [
    ...new Set(
      query
        .normalize("NFKC")
        .toLowerCase()
        .match(/[\p{L}\p{N}_]+/gu) ?? [],
    ),
  ];
  return (
    words
      .filter((word) => (word.length >= 2 || hasCjk(word)) && !isStopWord(word))
      .sort((a, b) => b.length - a.length)
      .slice(0, max)
      // A substring of a very long word still finds it, within every engine's LIKE pattern limit.
      .map((word) => (word.length > LIKE_KEYWORD_MAX ? word.slice(0, LIKE_KEYWORD_MAX) : word))
  );
}

/** Longest LIKE keyword (SQLite refuses patterns over 50,000 bytes). */
const LIKE_KEYWORD_MAX = 128;
