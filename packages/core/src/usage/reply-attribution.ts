import { isStopWord } from "../algorithms/stop-words.js";
import { analyzeText } from "../recall/text-analyzer.js";

/** Distinctive words a reply must quote for an entry to count as used (fewer if it has fewer). */
export const QUOTED_WORDS_NEEDED = 2;

/** The content words of a text, stemmed: stop words and one- or two-letter words left out. */
function contentTerms(text: string): Set<string> {
  const terms = new Set<string>();
  for (const word of text.toLowerCase().split(/[^\p{L}\p{N}]+/u)) {
    if (word.length < 3 && !/^\p{N}+$/u.test(word)) continue;
    if (isStopWord(word)) continue;
    for (const term of analyzeText(word)) terms.add(term);
  }
  return terms;
}

/**
 * Which results a reply used (`Memory.feedbackFromReply`; docs/usage.md): an entry's
 * distinctive words are its content words that no other result of the same recall has (what
 * all of them share, the question's own words most often, shows nothing). An entry counts as
 * used when the reply quotes at least two of them (its only one, when it has one), as ignored
 * otherwise; an entry with no distinctive word is neither (nothing could tell).
 */
export function attributeReply(
  results: readonly { key: string; content: string }[],
  reply: string,
): { used: string[]; ignored: string[] } {
  const terms = results.map((result) => contentTerms(result.content));
  const said = contentTerms(reply);
  const used: string[] = [];
  const ignored: string[] = [];
  results.forEach((result, index) => {
    const own = [...terms[index]!].filter((term) =>
      terms.every((other, at) => at === index || !other.has(term)),
    );
    if (own.length === 0) return;
    const quoted = own.filter((term) => said.has(term)).length;
    if (quoted >= Math.min(QUOTED_WORDS_NEEDED, own.length)) used.push(result.key);
    else ignored.push(result.key);
  });
  return { used, ignored };
}
