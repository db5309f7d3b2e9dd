import { extractSearchTerms, type SearchTerm, splitWord } from "./search-terms.js";

/**
 * Index-time tokens of a text, cut exactly like queries ({@link extractSearchTerms}): lower-cased
 * words, CJK runs as bigrams, and mixed words split ("ai記憶" -> "ai", "記憶"), so every query
 * term can match. Repeats are kept (BM25 counts them).
 */
export function indexTokens(text: string): string[] {
  const tokens: string[] = [];
  for (const [word] of text.normalize("NFKC").matchAll(/[\p{L}\p{N}\p{M}_]+/gu)) {
    for (const part of splitWord(word)) tokens.push(part.text);
  }
  return tokens;
}

export interface Bm25Document {
  id: string;
  tokens: readonly string[];
}

/**
 * Okapi BM25 over an in-memory document set (k1 = 1.2, b = 0.75, FTS5's idf with its 1e-6
 * floor), for backends without a full-text engine. Returns hits best first; documents that
 * match no term are left out.
 */
export function bm25Search(
  documents: readonly Bm25Document[],
  query: string | SearchTerm[],
  options: { k1?: number; b?: number } = {},
): { id: string; score: number }[] {
  const terms = typeof query === "string" ? extractSearchTerms(query) : query;
  if (terms.length === 0 || documents.length === 0) return [];
  const k1 = options.k1 ?? 1.2;
  const b = options.b ?? 0.75;
  const n = documents.length;
  const averageLength = documents.reduce((sum, doc) => sum + doc.tokens.length, 0) / n || 1;
  const matches = (token: string, term: SearchTerm) =>
    term.prefix ? token.startsWith(term.text) : token === term.text;
  const frequencies = documents.map((doc) =>
    terms.map((term) => doc.tokens.filter((t) => matches(t, term)).length),
  );
  const idf = terms.map((_, t) => {
    const containing = frequencies.filter((f) => f[t]! > 0).length;
    const value = Math.log((n - containing + 0.5) / (containing + 0.5));
    return value > 0 ? value : 1e-6;
  });
  const hits: { id: string; score: number }[] = [];
  documents.forEach((doc, d) => {
    let score = 0;
    let matched = false;
    terms.forEach((_, t) => {
      const tf = frequencies[d]![t]!;
      if (tf === 0) return;
      matched = true;
      score +=
        (idf[t]! * (tf * (k1 + 1))) / (tf + k1 * (1 - b + (b * doc.tokens.length) / averageLength));
    });
    if (matched) hits.push({ id: doc.id, score });
  });
  return hits.sort((x, y) => y.score - x.score || (x.id < y.id ? -1 : 1));
}
