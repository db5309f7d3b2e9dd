import { lookupTable } from "../../algorithms/lookup-table.js";
import { normalizePhrase } from "./fact-words.js";

/**
 * How many values an attribute holds at once. A single-valued attribute (where someone lives,
 * their dentist) has one current value, so a different value replaces the old one; a
 * multi-valued one (likes, languages, friends) collects values, so only a fact that says the old
 * value is over ("no longer", "quit", "stopped") replaces it.
 */
export type Cardinality = "single" | "multi";

/** One attribute the fact reader knows (the table below; extend it there). */
export interface AttributeDefinition {
  /** Stable id, shown in decisions ("lives_in"). */
  id: string;
  cardinality: Cardinality;
  /**
   * Verb phrases that state it, copula left out ("lives in", "based in", "moved to"). A phrase
   * marked `negative` states the opposite ("dislikes" is `likes` negated).
   */
  phrases?: readonly (string | { phrase: string; negative?: boolean; change?: boolean })[];
  /** Nouns that name it: "the user's <noun> is V", "<Noun>: V", "has a new <noun>". */
  nouns?: readonly string[];
  /** Values that imply it after a copula ("is vegetarian" -> diet). */
  values?: readonly string[];
}

/**
 * The attributes, English. Order matters only between phrases of the same length (the first
 * wins); a longer phrase always wins over a shorter one ("works as" over "works").
 */
export const ATTRIBUTES: readonly AttributeDefinition[] = [
  {
    id: "lives_in",
    cardinality: "single",
    phrases: [
      "lives in",
      "based in",
      "resides in",
      "settled in",
      "stays in",
      "headquartered in",
      { phrase: "moved to", change: true },
      { phrase: "moved back to", change: true },
      { phrase: "relocated to", change: true },
      { phrase: "moved into", change: true },
      { phrase: "moved in with", change: true },
    ],
    nouns: ["home", "home city", "city", "residence", "head office", "headquarters", "hq"],
  },
  {
    id: "address",
    cardinality: "single",
    phrases: ["lives at"],
    nouns: ["address", "home address"],
  },
  {
    id: "hometown",
    cardinality: "single",
    phrases: ["is from", "comes from", "grew up in", "born in"],
    nouns: ["hometown", "birthplace"],
  },
  {
    id: "works_at",
    cardinality: "single",
    phrases: [
      "works at",
      "works for",
      "employed at",
      "employed by",
      "hired by",
      "works in a",
      "works in the",
      { phrase: "joined", change: true },
      { phrase: "started at", change: true },
      { phrase: "got a job at", change: true },
      { phrase: "got a new job at", change: true },
      { phrase: "started a new job at", change: true },
      { phrase: "started a job at", change: true },
      { phrase: "took a job at", change: true },
      { phrase: "took a new job at", change: true },
      { phrase: "landed a job at", change: true },
      { phrase: "started working at", change: true },
      { phrase: "started working for", change: true },
    ],
    nouns: ["employer", "company", "workplace"],
  },
  {
    id: "job_title",
    cardinality: "single",
    phrases: ["works as", { phrase: "promoted to", change: true }],
    nouns: ["job", "job title", "title", "role", "position", "occupation", "profession"],
  },
  {
    id: "manager",
    cardinality: "single",
    phrases: ["reports to"],
    nouns: ["manager", "supervisor", "line manager", "team lead", "team leader"],
  },
  {
    id: "diet",
    cardinality: "single",
    phrases: ["follows a"],
    nouns: ["diet"],
    values: [
      "vegetarian",
      "vegan",
      "pescatarian",
      "keto",
      "paleo",
      "omnivore",
      "carnivore",
      "gluten-free",
      "lactose intolerant",
    ],
  },
  {
    id: "drinks",
    cardinality: "multi",
    phrases: ["drinks", "orders"],
    nouns: ["drink", "coffee", "coffee order"],
  },
  { id: "eats", cardinality: "multi", phrases: ["eats", "snacks on"] },
  {
    id: "likes",
    cardinality: "multi",
    phrases: [
      "likes",
      "loves",
      "enjoys",
      "adores",
      "is into",
      "fan of",
      "is a fan of",
      { phrase: "dislikes", negative: true },
      { phrase: "hates", negative: true },
      { phrase: "can't stand", negative: true },
    ],
  },
  {
    id: "prefers",
    cardinality: "multi",
    phrases: ["prefers", "would rather"],
    nouns: ["preference"],
  },
  { id: "drives", cardinality: "single", phrases: ["drives", "rides"], nouns: ["car", "vehicle"] },
  { id: "phone", cardinality: "single", nouns: ["phone", "smartphone"] },
  {
    id: "phone_number",
    cardinality: "single",
    nouns: ["phone number", "number", "cell number", "mobile number", "cell", "telephone"],
  },
  { id: "email", cardinality: "single", nouns: ["email", "e-mail", "email address", "work email"] },
  {
    id: "plan",
    cardinality: "single",
    phrases: [
      { phrase: "upgraded to", change: true },
      { phrase: "downgraded to", change: true },
    ],
    nouns: ["plan", "subscription plan", "tier", "membership", "subscription tier"],
  },
  {
    id: "landlord",
    cardinality: "single",
    nouns: ["landlord", "landlady", "letting agent", "letting agency", "property manager"],
  },
  {
    id: "hairdresser",
    cardinality: "single",
    nouns: ["hairdresser", "barber", "hair salon", "hairstylist", "stylist", "salon"],
  },
  {
    id: "energy_supplier",
    cardinality: "single",
    nouns: [
      "energy supplier",
      "electricity supplier",
      "gas supplier",
      "energy provider",
      "electricity provider",
      "energy company",
      "power company",
    ],
  },
  {
    id: "mobile_provider",
    cardinality: "single",
    nouns: [
      "mobile carrier",
      "mobile provider",
      "mobile network",
      "mobile plan",
      "cell carrier",
      "cell plan",
      "phone carrier",
      "phone plan",
      "carrier",
      "network provider",
    ],
  },
  {
    id: "subscriptions",
    cardinality: "multi",
    phrases: ["subscribes to", "subscribed to"],
    nouns: ["subscriptions"],
  },
  { id: "dentist", cardinality: "single", nouns: ["dentist"] },
  {
    id: "doctor",
    cardinality: "single",
    nouns: ["doctor", "family doctor", "primary care doctor", "gp"],
  },
  { id: "therapist", cardinality: "single", nouns: ["therapist", "counselor", "psychologist"] },
  { id: "vet", cardinality: "single", nouns: ["vet", "veterinarian"] },
  {
    id: "age",
    cardinality: "single",
    phrases: [{ phrase: "turned", change: true }],
    nouns: ["age"],
  },
  {
    id: "birthday",
    cardinality: "single",
    phrases: ["born on"],
    nouns: ["birthday", "birth date", "date of birth"],
  },
  {
    id: "partner",
    cardinality: "single",
    phrases: ["married to", "dating", "engaged to", "in a relationship with"],
    nouns: ["partner", "wife", "husband", "fiance", "fiancee"],
  },
  {
    id: "relationship_status",
    cardinality: "single",
    values: ["single", "married", "engaged", "divorced", "widowed"],
  },
  {
    id: "school",
    cardinality: "single",
    phrases: ["studies at", "attends", "enrolled at", "goes to school at", "goes to"],
    nouns: ["school", "university", "college"],
  },
  { id: "timezone", cardinality: "single", nouns: ["timezone", "time zone"] },
  {
    id: "bank",
    cardinality: "single",
    phrases: ["banks with"],
    nouns: ["bank", "bank account", "banking", "current account", "checking account"],
  },
  {
    id: "commute",
    cardinality: "single",
    nouns: ["commute"],
  },
  {
    id: "gym",
    cardinality: "single",
    phrases: ["works out at", "trains at", "works out in"],
    nouns: ["gym", "gym membership", "fitness studio"],
  },
  { id: "laptop", cardinality: "single", nouns: ["laptop", "computer", "work laptop"] },
  { id: "editor", cardinality: "single", nouns: ["editor", "ide", "code editor"] },
  { id: "browser", cardinality: "single", nouns: ["browser", "web browser"] },
  { id: "tablet", cardinality: "single", nouns: ["tablet"] },
  {
    id: "internet_provider",
    cardinality: "single",
    nouns: ["internet provider", "broadband provider", "isp", "internet service provider"],
  },
  {
    id: "insurance",
    cardinality: "single",
    nouns: ["insurance", "health insurance", "insurer", "health insurer", "insurance company"],
  },
  { id: "os", cardinality: "single", nouns: ["operating system", "os"] },
  { id: "salary", cardinality: "single", phrases: ["earns", "makes"], nouns: ["salary", "income"] },
  {
    id: "name",
    cardinality: "single",
    phrases: ["is called", "is named", "goes by"],
    nouns: ["name", "nickname"],
  },
  {
    id: "status",
    cardinality: "single",
    nouns: [
      "status",
      "deadline",
      "release date",
      "due date",
      "launch date",
      "budget",

      "headcount",
      "location",
      "office",
    ],
  },
  {
    id: "price",
    cardinality: "single",
    phrases: ["costs", "priced at", "sells for"],
    nouns: ["price", "cost", "fee", "rent", "monthly fee"],
  },
  {
    id: "hobbies",
    cardinality: "multi",
    phrases: ["plays", "practices", "collects"],
    nouns: ["hobby", "hobbies"],
  },
  {
    id: "friends",
    cardinality: "multi",
    phrases: ["is friends with", "friends with"],
    nouns: ["friend", "friends", "best friend"],
  },
  {
    id: "uses",
    cardinality: "multi",
    phrases: ["uses", "works with", "relies on"],
    nouns: ["tools", "stack", "tech stack"],
  },
  {
    id: "speaks",
    cardinality: "multi",
    phrases: ["speaks", "is fluent in", "fluent in"],
    nouns: ["languages", "native language"],
  },
  {
    id: "owns",
    cardinality: "multi",
    phrases: ["owns", "has", { phrase: "bought", change: false }, "got"],
    nouns: ["pets", "pet"],
  },
  {
    id: "learning",
    cardinality: "multi",
    phrases: ["is learning", "learning", "studies", "is studying", "takes"],
  },
  {
    id: "allergies",
    cardinality: "multi",
    phrases: ["is allergic to", "allergic to"],
    nouns: ["allergy", "allergies"],
  },
  { id: "watches", cardinality: "multi", phrases: ["watches", "reads", "listens to", "follows"] },
  {
    id: "visits",
    cardinality: "multi",
    phrases: ["visits", "visited", "travels to", "traveled to"],
  },
];

/**
 * Roles someone holds in an organisation or group: "Acme's CEO is Jane", "Jane is the CEO of
 * Acme", "Acme has a new CEO", "Maria now chairs the committee" all read as subject Acme (or the
 * committee), attribute `role:ceo` (or `role:chair`), value the person. Single-valued.
 */
export const ROLES = lookupTable<string>({
  ceo: "ceo",
  cto: "cto",
  cfo: "cfo",
  coo: "coo",
  chair: "chair",
  chairman: "chair",
  chairwoman: "chair",
  chairperson: "chair",
  president: "president",
  head: "head",
  director: "director",
  principal: "principal",
  coach: "coach",
  captain: "captain",
  owner: "owner",
  lead: "lead",
  leader: "lead",
  mayor: "mayor",
  editor: "editor",
});

/** Past participles of role verbs: "The club is chaired by Karen". */
export const ROLE_PARTICIPLES = lookupTable<string>({
  chaired: "chair",
  headed: "head",
  led: "lead",
  run: "head",
  coached: "coach",
  captained: "captain",
  managed: "manager",
  owned: "owner",
});

/** Verbs that say the subject holds a role of the object ("Maria chairs the board"). */
export const ROLE_VERBS = lookupTable<string>({
  chair: "chair",
  head: "head",
  lead: "lead",
  captain: "captain",
  coach: "coach",
});

/**
 * Nouns of occupations: "X is a nurse" / "X is now a senior engineer" reads as `job_title`.
 * Compared by their last word, stemmed.
 */
export const OCCUPATIONS: readonly string[] = [
  "engineer",
  "developer",
  "programmer",
  "designer",
  "nurse",
  "teacher",
  "doctor",
  "lawyer",
  "accountant",
  "architect",
  "chef",
  "cook",
  "scientist",
  "researcher",
  "professor",
  "student",
  "analyst",
  "consultant",
  "manager",
  "director",
  "writer",
  "journalist",
  "editor",
  "pilot",
  "pharmacist",
  "dentist",
  "surgeon",
  "physician",
  "therapist",
  "intern",
  "salesperson",
  "marketer",
  "photographer",
  "artist",
  "musician",
  "baker",
  "carpenter",
  "electrician",
  "plumber",
  "mechanic",
  "firefighter",
  "officer",
  "paramedic",
  "librarian",
  "lecturer",
  "economist",
  "recruiter",
  "freelancer",
  "founder",
  "administrator",
  "technician",
  "veterinarian",
  "vet",
  "programmer",
  "product manager",
  "data scientist",
  "retiree",
  "barista",
  "waiter",
  "waitress",
  "cashier",
  "driver",
  "tutor",
  "coach",
  "trainer",
  "attorney",
  "paralegal",
  "clerk",
  "specialist",
  "coordinator",
  "strategist",
  "executive",
  "vp",
  "lead",
];

/**
 * Nouns of people related to a subject ("the user's sister Maya"): in a possessive chain they
 * name a new subject, never an attribute.
 */
export const RELATIONS: readonly string[] = [
  "sister",
  "brother",
  "mom",
  "dad",
  "parent",
  "parents",
  "son",
  "daughter",
  "child",
  "children",
  "wife",
  "husband",
  "grandmother",
  "grandfather",
  "grandma",
  "grandpa",
  "aunt",
  "uncle",
  "cousin",
  "niece",
  "nephew",
  "colleague",
  "coworker",
  "co-worker",
  "roommate",
  "neighbor",
  "team",
  "family",
  "sibling",
  "twin",
  "mentor",
  "assistant",
  "client",
  "landlord",
  "teammate",
  "classmate",
  "dog",
  "cat",
  "in-laws",
  "stepmother",
  "stepfather",
  "stepson",
  "stepdaughter",
  "granddaughter",
  "grandson",
  "grandparent",
  "grandparents",
  "grandchildren",
  "grandkids",
  "stepsister",
  "stepbrother",
  "flatmate",
  "housemate",
  "relative",
  "relatives",
  "fiance",
  "fiancee",
  "partner",
  "friend",
  "friends",
  "baby",
  "godmother",
  "godfather",
  "report",
  "direct report",
  "cofounder",
  "co-founder",
  "company",
  "startup",
  "app",
  "product",
  "band",
  "club",
  "school",
];

interface CompiledPhrase {
  attribute: AttributeDefinition;
  words: string[];
  negative: boolean;
  change: boolean;
}

const compiledPhrases: CompiledPhrase[] = ATTRIBUTES.flatMap((attribute) =>
  (attribute.phrases ?? []).map((entry) => {
    const spec = typeof entry === "string" ? { phrase: entry } : entry;
    return {
      attribute,
      words: normalizePhrase(spec.phrase.replace(/^is /u, "")),
      negative: spec.negative ?? false,
      change: spec.change ?? false,
    };
  }),
).sort((a, b) => b.words.length - a.words.length);

const compiledNouns = ATTRIBUTES.flatMap((attribute) =>
  (attribute.nouns ?? []).map((noun) => ({ attribute, words: normalizePhrase(noun) })),
).sort((a, b) => b.words.length - a.words.length);

const valueAttributes = new Map<string, AttributeDefinition>(
  ATTRIBUTES.flatMap((attribute) =>
    (attribute.values ?? []).map((value) => [normalizePhrase(value).join(" "), attribute] as const),
  ),
);

const startsWith = (words: readonly string[], at: number, phrase: readonly string[]) =>
  phrase.every((word, offset) => words[at + offset] === word);

/** The longest attribute phrase at `at` in normalized words ("moved to" in "move to munich"). */
export function matchPhrase(
  words: readonly string[],
  at: number,
):
  | { attribute: AttributeDefinition; length: number; negative: boolean; change: boolean }
  | undefined {
  const found = compiledPhrases.find((phrase) => startsWith(words, at, phrase.words));
  return (
    found && {
      attribute: found.attribute,
      length: found.words.length,
      negative: found.negative,
      change: found.change,
    }
  );
}

/** The attribute a noun phrase names, when the whole phrase or its last words are a table noun. */
export function attributeOfNoun(words: readonly string[]): AttributeDefinition | undefined {
  return nounMatch(words)?.attribute;
}

/**
 * The table noun that ends a noun phrase, and the words before it (its qualifier: "pension" in
 * "pension plan", "netflix" in "Netflix plan"). Attributes with different qualifiers differ.
 */
export function nounMatch(
  words: readonly string[],
): { attribute: AttributeDefinition; qualifier: string[] } | undefined {
  for (const noun of compiledNouns) {
    const at = words.length - noun.words.length;
    if (at >= 0 && startsWith(words, at, noun.words)) {
      return { attribute: noun.attribute, qualifier: words.slice(0, at) };
    }
  }
  return undefined;
}

/** The attribute a noun phrase names exactly ("home city" yes, "birth city" no). */
export function attributeOfExactNoun(words: readonly string[]): AttributeDefinition | undefined {
  return compiledNouns.find(
    (noun) => noun.words.length === words.length && startsWith(words, 0, noun.words),
  )?.attribute;
}

/** The attribute a copula's value implies ("vegetarian" -> diet), if any. */
export function attributeOfValue(words: readonly string[]): AttributeDefinition | undefined {
  for (let length = Math.min(3, words.length); length >= 1; length--) {
    for (let at = 0; at + length <= words.length; at++) {
      const found = valueAttributes.get(words.slice(at, at + length).join(" "));
      if (found) return found;
    }
  }
  return undefined;
}

const occupationHeads = new Set(OCCUPATIONS.map((noun) => normalizePhrase(noun).at(-1)!));
const relationHeads = new Set(RELATIONS.map((noun) => normalizePhrase(noun).at(-1)!));

/** Whether a normalized noun is an occupation ("nurse", "engineer"). */
export const isOccupation = (norm: string): boolean => occupationHeads.has(norm);
/** Whether a normalized noun names a related person or thing ("sister", "team"). */
export const isRelation = (norm: string): boolean => relationHeads.has(norm);

/** The words a candidate query adds for an attribute: its phrases and nouns, as typed. */
export function attributeQueryWords(attribute: AttributeDefinition): string[] {
  const words = new Set<string>();
  // Nouns first: they are the rarer, surer words ("employer" before "works", "at"); then the
  // verbs of a change ("moved", "relocated"), which an update is told with.
  for (const noun of attribute.nouns ?? []) for (const word of noun.split(" ")) words.add(word);
  for (const entry of attribute.phrases ?? []) {
    if (typeof entry === "string" || !entry.change) continue;
    for (const word of entry.phrase.split(" ")) if (!QUERY_FILLER.has(word)) words.add(word);
  }
  // "single" reaches "I'm single" from "I got married"
  for (const value of attribute.values ?? []) for (const word of value.split(" ")) words.add(word);
  for (const entry of attribute.phrases ?? []) {
    const phrase = typeof entry === "string" ? entry : entry.phrase;
    if (typeof entry !== "string" && entry.negative) continue;
    for (const word of phrase.split(" ")) if (!QUERY_FILLER.has(word)) words.add(word);
  }
  return [...words];
}

/** Words of attribute phrases that find nothing by themselves. */
const QUERY_FILLER = new Set([
  "a",
  "an",
  "the",
  "to",
  "at",
  "in",
  "on",
  "for",
  "by",
  "of",
  "new",
  "with",
]);
