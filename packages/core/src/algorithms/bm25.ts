import { splitWord } from "./search-terms.js";

/**
 * The index cut of schema versions before the shared analyzer (lower-cased words, CJK runs as
 * bigrams, no stemming). Only migrations from those versions use it; current code indexes
 * `indexedTerms` from recall/text-analyzer.ts.
 */
export function indexTokens(text: string): string[] {
  const tokens: string[] = [];
  for (const [word] of text.normalize("NFKC").matchAll(/[\p{L}\p{N}\p{M}_]+/gu)) {
    for (const part of splitWord(word)) tokens.push(part.text);
  }
  return tokens;
}
