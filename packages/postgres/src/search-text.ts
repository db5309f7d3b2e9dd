import { indexTokens, type SearchTerm } from "@memory/api";

// A tsvector holds at most 1 MiB of lexemes and 16 383 positions; the index text of a huge
// entry is cut here so storing it never fails (its first 256 Ki characters stay searchable).
const MAX_INDEX_TEXT = 256 * 1024;

/**
 * The text given to `to_tsvector('simple', ...)`: key and content cut by `@memory/api`'s
 * `indexTokens` (lower-cased words, CJK runs as bigrams), the same cut queries get from
 * `extractSearchTerms`, so every query term can match whatever PostgreSQL's parser does next.
 */
export function searchText(key: string, content: string): string {
  const text = `${indexTokens(key).join(" ")} ${indexTokens(content).join(" ")}`;
  if (text.length <= MAX_INDEX_TEXT) return text;
  const cut = text.lastIndexOf(" ", MAX_INDEX_TEXT);
  return text.slice(0, cut > 0 ? cut : MAX_INDEX_TEXT);
}

/** Quotes one lexeme for `to_tsquery`: inside '...', a quote is doubled and a backslash escaped. */
function quoteLexeme(text: string): string {
  return `'${text.replaceAll("\\", "\\\\").replaceAll("'", "''")}'`;
}

/**
 * A `to_tsquery('simple', $n)` argument that ORs the terms. Every term is a quoted lexeme, so
 * `&`, `|`, `!`, `<->`, `:` or `*` typed by a user are plain text; only a trailing `*` that
 * `extractSearchTerms` recognised becomes a prefix match (`'wild':*`). Null when no terms.
 */
export function buildTsQuery(
  terms: readonly SearchTerm[],
  operator: "|" | "&" = "|",
): string | null {
  if (terms.length === 0) return null;
  return terms
    .map((term) => `${quoteLexeme(term.text)}${term.prefix ? ":*" : ""}`)
    .join(` ${operator} `);
}
