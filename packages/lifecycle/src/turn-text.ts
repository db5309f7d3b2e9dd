/**
 * What a conversation turn's text is, read without a model: a question, a contentless reply
 * ("Sure, noted!"), or a statement that can carry memory. Used by the agent loop's helpers to
 * keep questions and filler out of the memory context.
 */

const QUESTION_OPENERS =
  /^(who|whom|whose|what|which|when|where|why|how|do|does|did|is|are|was|were|am|can|could|will|would|should|shall|have|has|had|may|might|any|remind me|tell me|guess)\b/iu;

/** A question: ends with "?" or opens like one ("where do I live", "remind me what ..."). */
export function isQuestion(text: string): boolean {
  const trimmed = text.trim();
  if (trimmed.endsWith("?")) return true;
  // A statement may end a longer message that opened with a question: judge the last sentence.
  const last = sentences(trimmed).at(-1) ?? trimmed;
  return QUESTION_OPENERS.test(last) && !/[.!]$/u.test(last);
}

/**
 * A turn that only asks: every sentence is a question, or the rest says nothing ("Wow! What got
 * you into running?"). A turn that tells something and then asks back ("I've got lots of kids'
 * books, classics mostly. What's your favourite?") carries what it told, so it is no question.
 */
export function onlyAsks(text: string): boolean {
  if (!isQuestion(text)) return false;
  const told = sentences(text).filter((sentence) => !isQuestion(sentence));
  return isContentless(told.join(" "));
}

/**
 * Words that carry nothing to remember: acknowledgements, greetings, fillers, pronouns and
 * function words. A text made only of these ("Sure, noted!", "I don't know yet.", "Got it,
 * thanks!") is contentless.
 */
const FILLER = new Set(
  (
    "a an the and or but so ok okay sure yes yeah yep no nope not thanks thank you thx great " +
    "good nice cool fine alright right noted got it i me my we us our you your he she they them " +
    "this that these those there here is am are was were be been do does did don't doesn't " +
    "didn't know yet maybe perhaps hmm hm oh ah well just let will would can could should " +
    "shall to of for on in at with about hi hello hey bye goodbye see later soon sounds " +
    "absolutely certainly definitely of course understood glad help happy welcome anytime " +
    "any time problem worries np sorry really wow lol haha totally exactly indeed agreed " +
    "done makes sense interesting true what how why when where who which it's i'm that's " +
    "i'll we'll you're i've keep mind remember note as well too also now again awesome amazing " +
    "lovely perfect cheers sounds sound much more very going anything something all " +
    "congratulations congrats morning evening afternoon night"
  ).split(" "),
);

/**
 * Whether a text says nothing worth remembering: fewer than `minContentWords` words that are not
 * filler (default 1: only filler, or no words at all). An assistant's reply is held to 3 ("Wow,
 * that sounds amazing!" says nothing about anyone).
 */
export function isContentless(text: string, minContentWords = 1): boolean {
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+(?:['’][\p{L}]+)?/gu) ?? [];
  return words.filter((word) => !FILLER.has(word.replace("’", "'"))).length < minContentWords;
}

/** Content words an assistant's reply needs to reach the memory context. */
export const REPLY_CONTENT_WORDS = 3;

const ABBREVIATION = /\b(dr|mr|mrs|ms|st|jr|sr|prof|vs|etc|e\.g|i\.e|approx|no)\.$/iu;

/**
 * The sentences of a text: split after ".", "!" or "?" followed by a space, and at line breaks;
 * never after an abbreviation ("Dr. Lee").
 */
export function sentences(text: string): string[] {
  const pieces = text.split(/(?<=[.!?])\s+|\r?\n/u);
  const result: string[] = [];
  for (const piece of pieces) {
    const previous = result.at(-1);
    if (previous !== undefined && ABBREVIATION.test(previous)) {
      result[result.length - 1] = `${previous} ${piece.trim()}`;
    } else if (piece.trim() !== "") {
      result.push(piece.trim());
    }
  }
  return result;
}
