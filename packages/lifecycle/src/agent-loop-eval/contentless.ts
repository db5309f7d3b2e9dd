/**
 * The benchmark's definition of a contentless turn ("Sure, noted!", "Got it.", "Wow, that's
 * great!"): fewer than three words left once function words, greetings, acknowledgements and
 * interjections are taken out. Deliberately narrow, so that what it counts is filler by any
 * reading; it measures noise and is not a rule of the library.
 */

const FILLER = new Set(
  `a an the and or but so to of in on at for with it its it's is am are was were be been this that
  these those i i'm i've i'll me my you you're your we we're our us he she they them his her their
  do does did done have has had will would can could should just really very too also so much more
  well oh ah wow hey hi hello bye goodbye thanks thank thx cheers sure ok okay yes yeah yep no nope
  got noted note understood right alright great good nice cool awesome amazing glad happy love
  lovely sounds sound like totally absolutely definitely exactly indeed perfect fine what's what how
  how's going up new anything something all about again there here now then lol haha`.split(/\s+/),
);

export function contentWords(text: string): string[] {
  return (text.toLowerCase().match(/[\p{L}\p{N}']+/gu) ?? []).filter((word) => !FILLER.has(word));
}

export function isContentless(text: string): boolean {
  return contentWords(text).length < 3;
}
