import type { QueryTerm, TextLanguage } from "@memory/api";
import { countIndexedTerms, indexedTerms } from "@memory/core";

/**
 * PostgreSQL's longest lexeme, in bytes (`MAXSTRLEN`). A longer term (a hex dump, a long
 * identifier) cannot be in a tsvector or a tsquery: it stays in `search_terms` (it counts in
 * the entry's length) but is neither indexed nor searched.
 */
export const MAX_LEXEME_BYTES = 2047;

/** What an entry's row stores for full-text search. */
export interface EntryTerms {
  /** `indexedTerms(key, content)` from `@memory/api`: the terms, space-joined. */
  terms: string;
  /** The number of space-separated terms (the entry's BM25 length); 0 for "". */
  count: number;
}

export function entryTerms(
  key: string,
  content: string,
  language: TextLanguage = "english",
): EntryTerms {
  const terms = indexedTerms(key, content, language);
  return { terms, count: countIndexedTerms(terms) };
}

/** True when a query term can be a lexeme (see {@link MAX_LEXEME_BYTES}). */
export function searchable(term: QueryTerm): boolean {
  return term.text !== "" && Buffer.byteLength(term.text, "utf8") <= MAX_LEXEME_BYTES;
}

/** A prefix term's stem, when it can be a lexeme (it is never longer than the typed word). */
function searchableStem(term: QueryTerm): string | undefined {
  const stem = term.stem;
  return stem && Buffer.byteLength(stem, "utf8") <= MAX_LEXEME_BYTES ? stem : undefined;
}

/** Quotes one lexeme for tsquery input: inside '...', a quote is doubled and a backslash escaped. */
function quoteLexeme(text: string): string {
  return `'${text.replaceAll("\\", "\\\\").replaceAll("'", "''")}'`;
}

/**
 * tsquery input (cast with `::tsquery`, never `to_tsquery`: no parser or dictionary touches the
 * lexemes) for one analyzed term; a prefix term becomes `'wild':*`, or `( 'zephyrine':* |
 * 'zephyrin' )` when its word's stem differs (`termMatches` in @memory/api). The text is always
 * a quoted lexeme, so `&`, `|`, `!`, `<->` or `:` typed by a user are never operators.
 */
export function termQuery(term: QueryTerm): string {
  if (!term.prefix) return quoteLexeme(term.text);
  const prefix = `${quoteLexeme(term.text)}:*`;
  const stem = searchableStem(term);
  return stem === undefined ? prefix : `( ${prefix} | ${quoteLexeme(stem)} )`;
}

/** The terms ORed, as tsquery input. */
export function anyTermQuery(terms: readonly QueryTerm[]): string {
  return terms.map(termQuery).join(" | ");
}
