/**
 * The Porter (1980) stemmer, so "running", "runs" and "run" index as the same term.
 *
 * Porter 1, not Porter 2 ("Snowball English"): it is a published, frozen algorithm that every
 * full-text engine implements (SQLite FTS5's `porter` tokenizer among them), so a stem computed
 * here always equals the one an engine computes and stored indexes stay reproducible. This is a
 * line-by-line port of Martin Porter's reference C implementation, including its two
 * documented departures in step 2 ("bli" -> "ble", "logi" -> "log").
 *
 * Input must already be lower-cased. Words of 2 letters or fewer, and words with any character
 * outside ASCII a-z (accents, digits, CJK), are returned unchanged. No memoization: callers may
 * cache. The working buffer is shared at module level, which is safe because the function is
 * synchronous and never re-entered.
 */

const CHAR_A = 97;
const CHAR_C = 99;
const CHAR_E = 101;
const CHAR_G = 103;
const CHAR_I = 105;
const CHAR_L = 108;
const CHAR_N = 110;
const CHAR_O = 111;
const CHAR_S = 115;
const CHAR_T = 116;
const CHAR_U = 117;
const CHAR_V = 118;
const CHAR_W = 119;
const CHAR_X = 120;
const CHAR_Y = 121;
const CHAR_Z = 122;

/** The word being stemmed, as character codes; grown on demand, never shrunk. */
let buffer = new Uint8Array(64);
/** Index of the last character of the current word. */
let end = 0;
/** Index of the last character of the stem before the suffix matched by `endsWith`. */
let stemEnd = 0;
/** Lowest index written by `replaceSuffix`; characters before it still equal the input. */
let firstChanged = 0;

/** True when the character at `index` is a consonant; "y" is one unless it follows a consonant. */
function isConsonant(index: number): boolean {
  let position = index;
  // A run of "y"s alternates consonant/vowel, starting from the character before the run.
  let flips = false;
  while (true) {
    const code = buffer[position]!;
    if (
      code === CHAR_A ||
      code === CHAR_E ||
      code === CHAR_I ||
      code === CHAR_O ||
      code === CHAR_U
    ) {
      return flips;
    }
    if (code !== CHAR_Y || position === 0) return !flips;
    flips = !flips;
    position--;
  }
}

/** The measure m of buffer[0..stemEnd]: the number of vowel-consonant sequences, as in [C](VC){m}[V]. */
function measure(): number {
  let count = 0;
  let index = 0;
  while (true) {
    if (index > stemEnd) return count;
    if (!isConsonant(index)) break;
    index++;
  }
  index++;
  while (true) {
    while (true) {
      if (index > stemEnd) return count;
      if (isConsonant(index)) break;
      index++;
    }
    index++;
    count++;
    while (true) {
      if (index > stemEnd) return count;
      if (!isConsonant(index)) break;
      index++;
    }
    index++;
  }
}

/** True when buffer[0..stemEnd] contains a vowel. */
function vowelInStem(): boolean {
  for (let index = 0; index <= stemEnd; index++) {
    if (!isConsonant(index)) return true;
  }
  return false;
}

/** True when buffer[index - 1..index] is a double consonant. */
function isDoubleConsonant(index: number): boolean {
  if (index < 1) return false;
  if (buffer[index] !== buffer[index - 1]) return false;
  return isConsonant(index);
}

/**
 * True when buffer[index - 2..index] is consonant-vowel-consonant and the last consonant is not
 * w, x or y: the shape of short words such as "hop", where a removed "e" is put back.
 */
function isConsonantVowelConsonant(index: number): boolean {
  if (index < 2 || !isConsonant(index) || isConsonant(index - 1) || !isConsonant(index - 2)) {
    return false;
  }
  const code = buffer[index]!;
  return code !== CHAR_W && code !== CHAR_X && code !== CHAR_Y;
}

/** True when buffer[0..end] ends with `suffix`; on a match, `stemEnd` marks where the stem ends. */
function endsWith(suffix: string): boolean {
  const length = suffix.length;
  if (length > end + 1) return false;
  const start = end - length + 1;
  for (let offset = length - 1; offset >= 0; offset--) {
    if (buffer[start + offset] !== suffix.charCodeAt(offset)) return false;
  }
  stemEnd = end - length;
  return true;
}

/** Replaces the characters after `stemEnd` with `replacement`. */
function replaceSuffix(replacement: string): void {
  const start = stemEnd + 1;
  for (let offset = 0; offset < replacement.length; offset++) {
    buffer[start + offset] = replacement.charCodeAt(offset);
  }
  if (start < firstChanged) firstChanged = start;
  end = stemEnd + replacement.length;
}

/** Replaces the matched suffix only when the stem's measure is above zero. */
function replaceIfMeasured(replacement: string): void {
  if (measure() > 0) replaceSuffix(replacement);
}

/** Step 1a and 1b: plurals, then -ed and -ing. */
function step1ab(): void {
  if (buffer[end] === CHAR_S) {
    if (endsWith("sses")) end -= 2;
    else if (endsWith("ies")) replaceSuffix("i");
    else if (buffer[end - 1] !== CHAR_S) end--;
  }
  if (endsWith("eed")) {
    if (measure() > 0) end--;
  } else if ((endsWith("ed") || endsWith("ing")) && vowelInStem()) {
    end = stemEnd;
    if (endsWith("at")) replaceSuffix("ate");
    else if (endsWith("bl")) replaceSuffix("ble");
    else if (endsWith("iz")) replaceSuffix("ize");
    else if (isDoubleConsonant(end)) {
      const code = buffer[end]!;
      if (code !== CHAR_L && code !== CHAR_S && code !== CHAR_Z) end--;
    } else {
      stemEnd = end;
      if (measure() === 1 && isConsonantVowelConsonant(end)) replaceSuffix("e");
    }
  }
}

/** Step 1c: a final "y" becomes "i" when the stem has a vowel ("happy" -> "happi", "sky" stays). */
function step1c(): void {
  if (endsWith("y") && vowelInStem()) {
    buffer[end] = CHAR_I;
    if (end < firstChanged) firstChanged = end;
  }
}

/** Step 2: double suffixes to single ones ("-ization" -> "-ize"), when the stem's m > 0. */
function step2(): void {
  switch (buffer[end - 1]) {
    case CHAR_A:
      if (endsWith("ational")) replaceIfMeasured("ate");
      else if (endsWith("tional")) replaceIfMeasured("tion");
      break;
    case CHAR_C:
      if (endsWith("enci")) replaceIfMeasured("ence");
      else if (endsWith("anci")) replaceIfMeasured("ance");
      break;
    case CHAR_E:
      if (endsWith("izer")) replaceIfMeasured("ize");
      break;
    case CHAR_L:
      // The reference code's departure: "bli" -> "ble" (covers the paper's "abli" -> "able").
      if (endsWith("bli")) replaceIfMeasured("ble");
      else if (endsWith("alli")) replaceIfMeasured("al");
      else if (endsWith("entli")) replaceIfMeasured("ent");
      else if (endsWith("eli")) replaceIfMeasured("e");
      else if (endsWith("ousli")) replaceIfMeasured("ous");
      break;
    case CHAR_O:
      if (endsWith("ization")) replaceIfMeasured("ize");
      else if (endsWith("ation")) replaceIfMeasured("ate");
      else if (endsWith("ator")) replaceIfMeasured("ate");
      break;
    case CHAR_S:
      if (endsWith("alism")) replaceIfMeasured("al");
      else if (endsWith("iveness")) replaceIfMeasured("ive");
      else if (endsWith("fulness")) replaceIfMeasured("ful");
      else if (endsWith("ousness")) replaceIfMeasured("ous");
      break;
    case CHAR_T:
      if (endsWith("aliti")) replaceIfMeasured("al");
      else if (endsWith("iviti")) replaceIfMeasured("ive");
      else if (endsWith("biliti")) replaceIfMeasured("ble");
      break;
    case CHAR_G:
      // The reference code's other departure: "logi" -> "log".
      if (endsWith("logi")) replaceIfMeasured("log");
      break;
  }
}

/** Step 3: -ic-, -full, -ness and similar, when the stem's m > 0. */
function step3(): void {
  switch (buffer[end]) {
    case CHAR_E:
      if (endsWith("icate")) replaceIfMeasured("ic");
      else if (endsWith("ative")) replaceIfMeasured("");
      else if (endsWith("alize")) replaceIfMeasured("al");
      break;
    case CHAR_I:
      if (endsWith("iciti")) replaceIfMeasured("ic");
      break;
    case CHAR_L:
      if (endsWith("ical")) replaceIfMeasured("ic");
      else if (endsWith("ful")) replaceIfMeasured("");
      break;
    case CHAR_S:
      if (endsWith("ness")) replaceIfMeasured("");
      break;
  }
}

/** Step 4: drops -ant, -ence and similar when the stem's m > 1. */
function step4(): void {
  let matched = false;
  switch (buffer[end - 1]) {
    case CHAR_A:
      matched = endsWith("al");
      break;
    case CHAR_C:
      matched = endsWith("ance") || endsWith("ence");
      break;
    case CHAR_E:
      matched = endsWith("er");
      break;
    case CHAR_I:
      matched = endsWith("ic");
      break;
    case CHAR_L:
      matched = endsWith("able") || endsWith("ible");
      break;
    case CHAR_N:
      matched = endsWith("ant") || endsWith("ement") || endsWith("ment") || endsWith("ent");
      break;
    case CHAR_O:
      matched =
        (endsWith("ion") &&
          stemEnd >= 0 &&
          (buffer[stemEnd] === CHAR_S || buffer[stemEnd] === CHAR_T)) ||
        endsWith("ou");
      break;
    case CHAR_S:
      matched = endsWith("ism");
      break;
    case CHAR_T:
      matched = endsWith("ate") || endsWith("iti");
      break;
    case CHAR_U:
      matched = endsWith("ous");
      break;
    case CHAR_V:
      matched = endsWith("ive");
      break;
    case CHAR_Z:
      matched = endsWith("ize");
      break;
  }
  if (matched && measure() > 1) end = stemEnd;
}

/** Step 5: drops a final "e" (5a) and turns a final "ll" into "l" (5b) on long enough stems. */
function step5(): void {
  stemEnd = end;
  if (buffer[end] === CHAR_E) {
    const wordMeasure = measure();
    if (wordMeasure > 1 || (wordMeasure === 1 && !isConsonantVowelConsonant(end - 1))) end--;
  }
  if (buffer[end] === CHAR_L && isDoubleConsonant(end) && measure() > 1) end--;
}

/** The Porter stem of a lower-cased word; short or non-ASCII-letter words come back unchanged. */
export function porterStem(word: string): string {
  const length = word.length;
  if (length <= 2) return word;
  if (length > buffer.length) buffer = new Uint8Array(length * 2);
  for (let index = 0; index < length; index++) {
    const code = word.charCodeAt(index);
    if (code < CHAR_A || code > CHAR_Z) return word;
    buffer[index] = code;
  }
  end = length - 1;
  stemEnd = 0;
  firstChanged = length;

  step1ab();
  if (end > 0) {
    step1c();
    step2();
    step3();
    step4();
    step5();
  }

  if (end === length - 1 && firstChanged === length) return word;
  const kept = Math.min(firstChanged, end + 1);
  let stem = word.slice(0, kept);
  for (let index = kept; index <= end; index++) stem += String.fromCharCode(buffer[index]!);
  return stem;
}
