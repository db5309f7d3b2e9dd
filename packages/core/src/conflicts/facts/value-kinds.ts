import { attributeOfNoun } from "./attribute-table.js";
import type { Fact } from "./fact-parts.js";
import { normalizePhrase, normalizeWord } from "./fact-words.js";

/**
 * Values whose kind names a single-valued attribute: "switched to an iPhone" changes the user's
 * phone as much as "the user's phone is now a Pixel" does. Product and brand names only where
 * they name one kind of thing (a Samsung can be a phone or a television; a Galaxy S is a phone).
 * Matched on the value's normalized words; extend here.
 */
const VALUE_KINDS: Readonly<Record<string, readonly string[]>> = {
  phone: ["iphone", "android phone", "pixel", "galaxy s", "galaxy z", "oneplus", "fairphone"],
  laptop: ["macbook", "macbook air", "macbook pro", "thinkpad", "chromebook", "xps", "zenbook"],
  tablet: ["ipad", "galaxy tab", "surface pro"],
  school: [
    "gymnasium",
    "academy",
    "high school",
    "primary school",
    "secondary school",
    "kindergarten",
  ],
  os: ["windows", "ubuntu", "macos", "linux", "fedora", "debian", "arch linux", "chromeos"],
  editor: ["vim", "neovim", "emacs", "vs code", "vscode", "intellij", "sublime text", "webstorm"],
  browser: ["firefox", "chrome", "safari", "brave", "microsoft edge", "vivaldi"],
  drives: [
    "tesla",
    "bmw",
    "audi",
    "vw",
    "volkswagen",
    "mercedes",
    "toyota",
    "honda",
    "ford",
    "mazda",
    "skoda",
    "kia",
    "hyundai",
    "volvo",
    "porsche",
    "subaru",
    "nissan",
    "fiat",
    "renault",
    "peugeot",
    "opel",
    "jeep",
    "lexus",
    "prius",
  ],
};

const kinds = Object.entries(VALUE_KINDS).flatMap(([attribute, names]) =>
  names.map((name) => ({ attribute, words: normalizePhrase(name) })),
);

/** Words of a model name after a brand ("Pro", "Max", "Air", "hybrid"). */
const MODEL_WORDS = new Set(
  [
    "pro",
    "max",
    "plus",
    "air",
    "mini",
    "ultra",
    "lite",
    "se",
    "fold",
    "flip",
    "hybrid",
    "electric",
    "estate",
    "sport",
  ].map(normalizeWord),
);

/**
 * Readings that say nothing about which attribute they state ("uses", "switched to", "has",
 * "carries", "is"): for these the value's kind decides.
 */
const GENERIC = new Set(["changed", "uses", "owns", "be", "verb:carri", "verb:buy", "verb:get"]);

/** The attribute a value's kind names ("iPhone 15" -> phone, "a new laptop" -> laptop). */
function kindOfValue(value: readonly string[]): string | undefined {
  const head = value.at(-1);
  const named = head === undefined ? undefined : attributeOfNoun([head]);
  if (named !== undefined && named.cardinality === "single") return named.id;
  // "an iPhone 15 Pro" is a phone, "an iPhone case" is not: only model words may follow
  return kinds.find((kind) =>
    value.some(
      (_, at) =>
        kind.words.every((word, k) => value[at + k] === word) &&
        value
          .slice(at + kind.words.length)
          .every((word) => /\d/u.test(word) || MODEL_WORDS.has(word)),
    ),
  )?.attribute;
}

/**
 * Nouns of a place on a scale ("third grade", "fifth floor", "night shift", "brown belt"): one
 * holds one at a time, whatever the verb ("is in", "started", "moved up to").
 */
const GRADED = new Set(["grade", "floor", "shift", "belt", "level", "size"].map(normalizeWord));

/**
 * What a value is a kind of, for what a fact says is over: "I quit coffee" ends "I drink three
 * flat whites a day", "I stopped drinking alcohol" ends "I have a glass of wine with dinner".
 */
const HYPERNYMS: Readonly<Record<string, readonly string[]>> = {
  coffee: [
    "flat white",
    "latte",
    "cappuccino",
    "espresso",
    "americano",
    "macchiato",
    "mocha",
    "cortado",
    "filter coffee",
  ],
  alcohol: [
    "wine",
    "beer",
    "whisky",
    "whiskey",
    "gin",
    "vodka",
    "rum",
    "cocktail",
    "cocktails",
    "prosecco",
    "champagne",
  ],
  meat: ["steak", "chicken", "beef", "pork", "bacon", "ham", "lamb", "sausage", "sausages"],
  smoking: ["cigarette", "cigarettes", "cigar", "cigars", "vape", "vaping"],
  sugar: ["soda", "cola", "sweets", "candy", "chocolate"],
  sport: [
    "running",
    "jogging",
    "swimming",
    "cycling",
    "football",
    "soccer",
    "tennis",
    "basketball",
    "volleyball",
    "handball",
    "hockey",
    "rugby",
    "golf",
    "climbing",
    "bouldering",
    "rowing",
    "yoga",
    "pilates",
    "boxing",
    "skiing",
    "badminton",
    "squash",
    "table tennis",
    "martial arts",
    "karate",
    "judo",
    "crossfit",
    "triathlon",
  ],
  language: [
    "english",
    "spanish",
    "italian",
    "french",
    "german",
    "portuguese",
    "dutch",
    "swedish",
    "norwegian",
    "danish",
    "finnish",
    "polish",
    "czech",
    "greek",
    "turkish",
    "russian",
    "ukrainian",
    "arabic",
    "hebrew",
    "hindi",
    "japanese",
    "korean",
    "mandarin",
    "cantonese",
    "chinese",
  ],
};

const hypernymEntries = Object.entries(HYPERNYMS).map(([general, kinds]) => ({
  general: normalizeWord(general),
  kinds: kinds.map(normalizePhrase),
}));

/** The general words a value falls under ("flat white" -> ["coffe"]). */
export function hypernymsOf(value: readonly string[]): string[] {
  return hypernymEntries
    .filter(({ kinds }) =>
      kinds.some((kind) => value.some((_, at) => kind.every((word, k) => value[at + k] === word))),
    )
    .map(({ general }) => general);
}

/**
 * The general words a text names things of, and the general words it names itself: "I switched
 * from running to swimming" -> ["sport"], "Which language am I learning?" -> ["languag"]
 * (normalized). What a question asks for ("which language") meets the facts that answer it
 * ("I started Italian") through these.
 */
export function kindsInText(text: string): { named: string[]; asked: string[] } {
  const words = normalizePhrase(text);
  return {
    named: hypernymsOf(words),
    asked: hypernymEntries
      .filter(({ general }) => words.includes(general))
      .map(({ general }) => general),
  };
}

/** The kinds of a general word, as typed ("coffe" -> "flat white", "latte", ...). */
export function kindsOf(general: string): readonly string[] {
  return Object.entries(HYPERNYMS).find(([word]) => normalizeWord(word) === general)?.[1] ?? [];
}

/** A generic reading made specific by its value's kind; other readings unchanged. */
export function typedByValue(fact: Fact): Fact {
  const attribute = fact.attribute;
  if (attribute === undefined) return fact;
  const head = fact.value.at(-1);
  if (
    head !== undefined &&
    GRADED.has(head) &&
    (GENERIC.has(attribute) || attribute.startsWith("verb:"))
  ) {
    return { ...fact, attribute: `of:${head}`, cardinality: "single" };
  }
  if (!GENERIC.has(attribute)) return fact;
  const kind = kindOfValue(fact.value);
  return kind === undefined ? fact : { ...fact, attribute: kind, cardinality: "single" };
}
