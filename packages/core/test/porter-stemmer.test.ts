import { describe, expect, it } from "vitest";
import { porterStem } from "../src/algorithms/porter-stemmer.js";

/** Pairs from Martin Porter's paper and reference vocabulary; each checked against his C code. */
const REFERENCE_PAIRS: ReadonlyArray<readonly [string, string]> = [
  // Step 1a: plurals.
  ["caresses", "caress"],
  ["ponies", "poni"],
  ["ties", "ti"],
  ["caress", "caress"],
  ["cats", "cat"],
  // Step 1b: -eed, -ed, -ing, with the follow-up fixes.
  ["feed", "feed"],
  ["agreed", "agre"],
  ["plastered", "plaster"],
  ["bled", "bled"],
  ["motoring", "motor"],
  ["sing", "sing"],
  ["conflated", "conflat"],
  ["troubled", "troubl"],
  ["sized", "size"],
  ["hopping", "hop"],
  ["tanned", "tan"],
  ["falling", "fall"],
  ["hissing", "hiss"],
  ["fizzed", "fizz"],
  ["failing", "fail"],
  ["filing", "file"],
  ["matting", "mat"],
  ["mating", "mate"],
  ["meeting", "meet"],
  ["milling", "mill"],
  ["messing", "mess"],
  ["meetings", "meet"],
  ["running", "run"],
  ["disabled", "disabl"],
  // Step 1c: a final y after a vowel-bearing stem.
  ["happy", "happi"],
  ["sky", "sky"],
  // Step 2.
  ["relational", "relat"],
  ["conditional", "condit"],
  ["rational", "ration"],
  ["valenci", "valenc"],
  ["hesitanci", "hesit"],
  ["digitizer", "digit"],
  ["conformabli", "conform"],
  ["radicalli", "radic"],
  ["differentli", "differ"],
  ["vileli", "vile"],
  ["analogousli", "analog"],
  ["vietnamization", "vietnam"],
  ["predication", "predic"],
  ["operator", "oper"],
  ["feudalism", "feudal"],
  ["decisiveness", "decis"],
  ["hopefulness", "hope"],
  ["callousness", "callous"],
  ["formaliti", "formal"],
  ["sensitiviti", "sensit"],
  ["sensibiliti", "sensibl"],
  ["generalizations", "gener"],
  // Step 3.
  ["triplicate", "triplic"],
  ["formative", "form"],
  ["formalize", "formal"],
  ["electriciti", "electr"],
  ["electrical", "electr"],
  ["hopeful", "hope"],
  ["goodness", "good"],
  // Step 4.
  ["revival", "reviv"],
  ["allowance", "allow"],
  ["inference", "infer"],
  ["airliner", "airlin"],
  ["runner", "runner"],
  ["gyroscopic", "gyroscop"],
  ["adjustable", "adjust"],
  ["defensible", "defens"],
  ["irritant", "irrit"],
  ["replacement", "replac"],
  ["adjustment", "adjust"],
  ["dependent", "depend"],
  ["adoption", "adopt"],
  ["homologou", "homolog"],
  ["homologous", "homolog"],
  ["communism", "commun"],
  ["activate", "activ"],
  ["angulariti", "angular"],
  ["effective", "effect"],
  ["bowdlerize", "bowdler"],
  // Step 5.
  ["probate", "probat"],
  ["rate", "rate"],
  ["cease", "ceas"],
  ["controll", "control"],
  ["roll", "roll"],
];

/** The reference C code's two step-2 departures from the 1980 paper. */
const DEPARTURE_PAIRS: ReadonlyArray<readonly [string, string]> = [
  ["archaeology", "archaeolog"],
  ["possibly", "possibl"],
];

/** "y" is a consonant at the start of a word or after a vowel, a vowel after a consonant. */
const Y_PAIRS: ReadonlyArray<readonly [string, string]> = [
  ["toying", "toi"],
  ["enjoying", "enjoi"],
  ["says", "sai"],
  ["yearly", "yearli"],
  ["syzygy", "syzygi"],
  ["studies", "studi"],
];

describe("porterStem", () => {
  it.each(REFERENCE_PAIRS)("stems %s to %s", (word, stem) => {
    expect(porterStem(word)).toBe(stem);
  });

  it.each(DEPARTURE_PAIRS)("follows the reference code's departure: %s -> %s", (word, stem) => {
    expect(porterStem(word)).toBe(stem);
  });

  it.each(Y_PAIRS)("applies the y rule: %s -> %s", (word, stem) => {
    expect(porterStem(word)).toBe(stem);
  });

  it("leaves words of 2 characters or fewer unchanged", () => {
    for (const word of ["", "a", "s", "is", "as", "ed", "ly"]) expect(porterStem(word)).toBe(word);
  });

  it("leaves words with anything outside ASCII a-z unchanged", () => {
    for (const word of ["café", "naïve", "記憶", "記憶力", "2023", "mp3s", "running2", "don't"]) {
      expect(porterStem(word)).toBe(word);
    }
  });

  it("does not lower-case: an upper-case letter leaves the word unchanged", () => {
    expect(porterStem("Running")).toBe("Running");
  });

  it("handles words longer than its initial buffer and shorter words after them", () => {
    const long = "antidisestablishmentarianism".repeat(3);
    expect(porterStem(`${long}izations`)).toBe(long);
    expect(porterStem("pneumonoultramicroscopicsilicovolcanoconiosis")).toBe(
      "pneumonoultramicroscopicsilicovolcanoconiosi",
    );
    expect(porterStem("hopping")).toBe("hop");
    expect(porterStem("cats")).toBe("cat");
  });

  it("is not idempotent, as in the reference algorithm", () => {
    expect(porterStem("relational")).toBe("relat");
    expect(porterStem("generalizations")).toBe("gener");
    expect(porterStem(porterStem("agreed"))).toBe("agr");
  });
});
