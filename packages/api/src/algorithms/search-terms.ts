/**
 * Turning free text into search terms that are the same at index time and query time, on every
 * backend. Chinese, Japanese and Korean runs have no spaces between words, so they are indexed
 * and queried as overlapping character bigrams: "記憶力" -> "記憶", "憶力". A 2-character query
 * like "記憶" then finds "私は記憶力が良い".
 */

// Han, Hiragana, Katakana, Hangul (incl. half-width forms and compatibility ideographs).
const CJK_RUN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u30fc]+/gu;
const CJK_CHAR = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u30fc]/u;
const WORD = /[\p{L}\p{N}\p{M}_]+(\*)?/gu;

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

/** One search term: plain lower-cased text; `prefix` when the user wrote `word*`. */
export interface SearchTerm {
  text: string;
  prefix: boolean;
}

/** Most terms taken from one query; longer queries are truncated (they add noise, not recall). */
export const MAX_QUERY_TERMS = 32;

/**
 * Splits a user query into terms. Everything that is not a letter, digit or mark separates
 * terms, so query-language syntax (`"`, `:`, `(`, `-`, `^`, `NEAR`, `AND`...) can only ever be
 * an ordinary word. `wild*` (a star right after a word) is a prefix term. Duplicates dropped.
 */
export function extractSearchTerms(query: string): SearchTerm[] {
  const terms: SearchTerm[] = [];
  const seen = new Set<string>();
  const add = (text: string, prefix: boolean) => {
    const id = `${text}\u0000${prefix}`;
    if (seen.has(id) || terms.length >= MAX_QUERY_TERMS) return;
    seen.add(id);
    terms.push({ text, prefix });
  };
  for (const match of query.normalize("NFKC").matchAll(WORD)) {
    const word = match[0].replace(/\*$/, "");
    const prefix = match[1] === "*";
    const parts = splitWord(word);
    parts.forEach((part, i) => {
      add(part.text, part.cjk ? false : prefix && i === parts.length - 1);
    });
  }
  return terms;
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

/**
 * Builds an SQLite FTS5 MATCH expression from user text. Every term is wrapped in double
 * quotes (a quoted string is always a plain token sequence in FTS5), so user text can never
 * inject query syntax. Returns `null` when the text has no searchable terms.
 */
export function buildFts5Query(
  query: string,
  options: { operator?: "OR" | "AND"; terms?: SearchTerm[] } = {},
): string | null {
  const terms = options.terms ?? extractSearchTerms(query);
  if (terms.length === 0) return null;
  const joiner = options.operator === "AND" ? " AND " : " OR ";
  return terms
    .map((term) => `"${term.text.replaceAll('"', '""')}"${term.prefix ? "*" : ""}`)
    .join(joiner);
}

/** Escapes `%`, `_` and the escape character `\` for a `LIKE ... ESCAPE '\'` pattern. */
export function escapeLike(word: string): string {
  return word.replace(/[\\%_]/g, (char) => `\\${char}`);
}

/** Up to 8 keywords of a query for the LIKE fallback (longest first, at least 2 characters). */
export function likeFallbackKeywords(query: string, max = 8): string[] {
  const words = [
    ...new Set(
      query
        .normalize("NFKC")
        .toLowerCase()
        .match(/[\p{L}\p{N}_]+/gu) ?? [],
    ),
  ];
  return words
    .filter((word) => word.length >= 2 || hasCjk(word))
    .sort((a, b) => b.length - a.length)
    .slice(0, max);
}
